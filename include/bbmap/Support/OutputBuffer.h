//===- OutputBuffer.h - fast text output buffer -----------------*- C++ -*-===//
//
// OutputBuffer collects text in a 64 KiB buffer and hands it to a
// raw_ostream when full and on flush(). A writer reserves room for a whole
// line once, fills it through a local pointer with the unchecked put*
// helpers (copies and in-place number formatting) and commits the new end:
// that is what makes bbmap-dump's text styles cheap per field.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_OUTPUTBUFFER_H
#define BBMAP_SUPPORT_OUTPUTBUFFER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstring>
#include <memory>

namespace bbmap {

class OutputBuffer {
public:
  static constexpr size_t Capacity = 1 << 16;
  /// Longest putDecimal or putHex output.
  static constexpr size_t MaxNumberSize = 20;

  explicit OutputBuffer(llvm::raw_ostream &OS)
      : OS(OS), Buf(new char[Capacity]), Cur(Buf.get()),
        End(Buf.get() + Capacity) {}
  ~OutputBuffer() { flush(); }

  /// Hands the buffered text to the stream.
  void flush() {
    OS.write(Buf.get(), Cur - Buf.get());
    Cur = Buf.get();
  }

  /// Makes room for \p N more bytes (at most Capacity) and returns where
  /// they go; commit() then marks how far they were written.
  char *reserve(size_t N) {
    if (LLVM_UNLIKELY(static_cast<size_t>(End - Cur) < N))
      flush();
    return Cur;
  }
  void commit(char *NewEnd) { Cur = NewEnd; }

  /// Appends text of any length (checked).
  void append(llvm::StringRef Text) {
    if (LLVM_UNLIKELY(Text.size() > static_cast<size_t>(End - Cur))) {
      flush();
      if (Text.size() > Capacity) {
        OS << Text;
        return;
      }
    }
    Cur = put(Cur, Text);
  }

  // Unchecked writes at P, into reserved room; each returns the new end.

  static char *put(char *P, llvm::StringRef Text) {
    std::memcpy(P, Text.data(), Text.size());
    return P + Text.size();
  }
  template <size_t N> static char *put(char *P, const char (&Text)[N]) {
    std::memcpy(P, Text, N - 1);
    return P + N - 1;
  }
  static char *putDecimal(char *P, uint64_t V) {
    unsigned Digits = 1;
    for (uint64_t Rest = V; Rest >= 10; Rest /= 10)
      ++Digits;
    char *End = P + Digits;
    P = End;
    do
      *--P = '0' + V % 10;
    while (V /= 10);
    return End;
  }
  /// "0x" and the hex digits of \p V, upper-case (as llvm::ScopedPrinter)
  /// or lower-case.
  static char *putHex(char *P, uint64_t V, bool UpperCase) {
    const char *Digits = UpperCase ? "0123456789ABCDEF" : "0123456789abcdef";
    P = put(P, "0x");
    char *End = P + (64 - llvm::countl_zero(V | 1) + 3) / 4;
    P = End;
    do
      *--P = Digits[V & 0xf];
    while (V >>= 4);
    return End;
  }

private:
  llvm::raw_ostream &OS;
  std::unique_ptr<char[]> Buf;
  char *Cur;
  char *End;
};

} // namespace bbmap

#endif // BBMAP_SUPPORT_OUTPUTBUFFER_H
