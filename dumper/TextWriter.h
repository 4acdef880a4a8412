//===- dumper/TextWriter.h - fast llvm-readobj LLVM-style text --*- C++ -*-===//
//
// TextWriter writes the same bytes as llvm::ScopedPrinter's LLVM style
// (two spaces per level, "Label: value" lines, "Label {" / "Label [" scopes,
// "0x" and upper-case hex) into its own large buffer, which it hands to a
// raw_ostream when full and on flush(). Each line reserves its room once and
// then copies and formats without further checks: no virtual calls or
// temporary strings per field. Also the number formatting helpers other
// text styles share.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_TEXTWRITER_H
#define BBMAP_DUMPER_TEXTWRITER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstring>
#include <memory>

namespace bbmap {

/// Room for any formatted uint64_t, with a "0x" prefix.
using NumberBuffer = char[24];

/// \p V in decimal, formatted at the end of \p Buf.
inline llvm::StringRef formatDecimal(uint64_t V, NumberBuffer &Buf) {
  char *End = Buf + sizeof(Buf), *P = End;
  do
    *--P = '0' + V % 10;
  while (V /= 10);
  return llvm::StringRef(P, End - P);
}

/// \p V in hex digits (\p Digits: "0123456789ABCDEF" or the lower-case
/// ones) after "0x", formatted at the end of \p Buf.
inline llvm::StringRef formatHex(uint64_t V, NumberBuffer &Buf,
                                 const char *Digits = "0123456789ABCDEF") {
  char *End = Buf + sizeof(Buf), *P = End;
  do
    *--P = Digits[V & 0xf];
  while (V >>= 4);
  *--P = 'x';
  *--P = '0';
  return llvm::StringRef(P, End - P);
}

class TextWriter {
public:
  explicit TextWriter(llvm::raw_ostream &OS)
      : OS(OS), Buf(new char[BufferSize]), Cur(Buf.get()),
        End(Buf.get() + BufferSize) {}
  ~TextWriter() { flush(); }

  /// Hands the buffered text to the stream.
  void flush() {
    OS.write(Buf.get(), Cur - Buf.get());
    Cur = Buf.get();
  }

  void beginObject() { scopeLine("{"); }
  void beginObject(llvm::StringRef Label) { scopeLine(Label, " {"); }
  void endObject() { endScope("}"); }
  void beginArray(llvm::StringRef Label) { scopeLine(Label, " ["); }
  void endArray() { endScope("]"); }

  /// An empty line (at the current indentation, as ScopedPrinter does).
  void blankLine() {
    startLine();
    put('\n');
  }
  void string(llvm::StringRef Label, llvm::StringRef Value) {
    field(Label);
    put(Value);
    reserve(1);
    put('\n');
  }
  void number(llvm::StringRef Label, uint64_t Value) {
    field(Label);
    putDecimal(Value);
    put('\n');
  }
  void hex(llvm::StringRef Label, uint64_t Value) {
    field(Label);
    NumberBuffer Num;
    put(formatHex(Value, Num));
    put('\n');
  }
  void boolean(llvm::StringRef Label, bool Value) {
    field(Label);
    // Both words are copied with their newline; only one is kept.
    std::memcpy(Cur, Value ? "Yes\n" : "No\n\n", 4);
    Cur += Value ? 4 : 3;
  }
  /// "Label: [1, 2, 3]".
  void list(llvm::StringRef Label, llvm::ArrayRef<uint32_t> Values) {
    field(Label);
    put('[');
    for (size_t I = 0; I < Values.size(); ++I) {
      reserve(MaxNumberSize + 2);
      if (I)
        put(", ");
      putDecimal(Values[I]);
    }
    reserve(2);
    put("]\n");
  }

private:
  static constexpr size_t BufferSize = 1 << 16;
  /// Room reserved for a line's indentation, label and fixed-width value.
  static constexpr size_t MaxFixedLine = 160;
  static constexpr size_t MaxNumberSize = sizeof(NumberBuffer);
  static constexpr size_t MaxCheapIndent = 64;

  /// Makes room for \p N bytes; N is at most BufferSize.
  void reserve(size_t N) {
    if (LLVM_UNLIKELY(static_cast<size_t>(End - Cur) < N))
      flush();
  }
  /// Unchecked appends: the caller reserved the room.
  void put(char C) { *Cur++ = C; }
  template <size_t N> void put(const char (&Text)[N]) {
    std::memcpy(Cur, Text, N - 1);
    Cur += N - 1;
  }
  void putDecimal(uint64_t V) {
    unsigned Digits = 1;
    for (uint64_t Rest = V; Rest >= 10; Rest /= 10)
      ++Digits;
    Cur += Digits;
    char *P = Cur;
    do
      *--P = '0' + V % 10;
    while (V /= 10);
  }
  /// A checked append of text of any length.
  void put(llvm::StringRef Text) {
    if (LLVM_UNLIKELY(Text.size() > static_cast<size_t>(End - Cur))) {
      flush();
      if (Text.size() > BufferSize) {
        OS << Text;
        return;
      }
    }
    std::memcpy(Cur, Text.data(), Text.size());
    Cur += Text.size();
  }

  /// Reserves room for a fixed-width line and writes its indentation.
  void startLine() {
    static constexpr char Spaces[MaxCheapIndent + 1] =
        "                                "
        "                                ";
    unsigned Width = 2 * Depth;
    reserve(MaxFixedLine + Width);
    if (LLVM_LIKELY(Width <= MaxCheapIndent)) {
      std::memcpy(Cur, Spaces, MaxCheapIndent);
      Cur += Width;
      return;
    }
    std::memset(Cur, ' ', Width);
    Cur += Width;
  }
  /// "<indent>Label: "; labels are short literals.
  void field(llvm::StringRef Label) {
    startLine();
    put(Label);
    put(": ");
  }
  void scopeLine(llvm::StringRef Label, llvm::StringRef Open = "") {
    startLine();
    put(Label);
    put(Open);
    put('\n');
    ++Depth;
  }
  void endScope(llvm::StringRef Close) {
    --Depth;
    startLine();
    put(Close);
    put('\n');
  }

  llvm::raw_ostream &OS;
  std::unique_ptr<char[]> Buf;
  char *Cur;
  char *End;
  unsigned Depth = 0;
};

} // namespace bbmap

#endif // BBMAP_DUMPER_TEXTWRITER_H
