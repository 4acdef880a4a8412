//===- ProfileText.h - fields the text profile readers share ----*- C++ -*-===//
//-*-===//
//
// What the pre-aggregated and fdata readers read alike: decimal counts in
// BOLT's range (int64_t, so 0 to 2^63-1) and fields quoted in messages.
// Private to lib/Profile.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LIB_PROFILE_PROFILETEXT_H
#define BBMAP_LIB_PROFILE_PROFILETEXT_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <limits>
#include <string>

namespace bbmap {

/// BOLT reads counts as int64_t.
inline constexpr uint64_t MaxCount = std::numeric_limits<int64_t>::max();

/// A field as it appears in a message: quoted, escaped, and cut after 40
/// bytes so that a garbage line does not flood the diagnostic.
inline std::string quote(llvm::StringRef Field) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << '\'';
  llvm::printEscapedString(Field.take_front(40), OS);
  if (Field.size() > 40)
    OS << "...";
  OS << '\'';
  return S;
}

enum class CountField { Valid, NotDecimal, OutOfRange };

/// Reads \p Field as a count. A negative number is well formed, only out
/// of range; nothing is read past the field.
inline CountField readCount(llvm::StringRef Field, uint64_t &Value) {
  bool Negative = Field.size() > 1 && Field.front() == '-';
  llvm::StringRef Digits = Field.drop_front(Negative);
  if (Digits.empty())
    return CountField::NotDecimal;
  uint64_t V = 0;
  bool Overflow = false;
  for (char C : Digits) {
    if (!llvm::isDigit(C))
      return CountField::NotDecimal;
    unsigned Digit = C - '0';
    Overflow |= V > (MaxCount - Digit) / 10;
    V = V * 10 + Digit;
  }
  if (Negative || Overflow)
    return CountField::OutOfRange;
  Value = V;
  return CountField::Valid;
}

/// What is wrong with a count field readCount did not accept.
inline std::string countProblem(CountField Problem, const char *What,
                                llvm::StringRef Field) {
  if (Problem == CountField::NotDecimal)
    return std::string("expected decimal ") + What + ", found " + quote(Field);
  return What + (" " + quote(Field)) + " out of range (0 to 2^63-1)";
}

} // namespace bbmap

#endif // BBMAP_LIB_PROFILE_PROFILETEXT_H
