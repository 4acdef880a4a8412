//===- OutputBuffer.h - fast text output buffer -----------------*- C++ -*-===//
//
// OutputBuffer collects text for a target: a raw_ostream, through a 64 KiB
// buffer handed over when full and on flush(), or a growing text (a piece
// of output made on another thread), written in place. A writer reserves
// room for a whole line once, fills it through a local pointer with the
// unchecked put* helpers (copies and in-place number formatting) and
// commits the new end: that is what makes bbmap-dump's text styles cheap
// per field.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_OUTPUTBUFFER_H
#define BBMAP_SUPPORT_OUTPUTBUFFER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstring>
#include <memory>

namespace bbmap {

/// Text made apart from the stream it is bound for.
using TextPiece = llvm::SmallVector<char, 0>;

class OutputBuffer {
public:
  /// The most a single reserve() may ask for.
  static constexpr size_t Capacity = 1 << 16;
  /// Longest putDecimal or putHex output.
  static constexpr size_t MaxNumberSize = 20;

  /// Writes to \p OS.
  explicit OutputBuffer(llvm::raw_ostream &OS)
      : OS(&OS), Buf(new char[Capacity]), Cur(Buf.get()),
        End(Buf.get() + Capacity) {}
  /// Appends to \p Text, which grows as needed.
  explicit OutputBuffer(TextPiece &Text)
      : Text(&Text), Cur(Text.end()), End(Text.end()) {}
  ~OutputBuffer() { flush(); }

  /// Hands the buffered text to the stream, or trims the text to what was
  /// written.
  void flush() {
    if (Text) {
      Text->truncate(Cur - Text->data());
      Cur = End = Text->end();
      return;
    }
    OS->write(Buf.get(), Cur - Buf.get());
    Cur = Buf.get();
  }

  /// Makes room for \p N more bytes (at most Capacity) and returns where
  /// they go; commit() then marks how far they were written.
  char *reserve(size_t N) {
    if (LLVM_UNLIKELY(static_cast<size_t>(End - Cur) < N))
      makeRoom(N);
    return Cur;
  }
  void commit(char *NewEnd) { Cur = NewEnd; }

  /// Appends text of any length (checked).
  void append(llvm::StringRef Str) {
    if (LLVM_UNLIKELY(Str.size() > static_cast<size_t>(End - Cur))) {
      if (!Text && Str.size() > Capacity) {
        flush();
        *OS << Str;
        return;
      }
      makeRoom(Str.size());
    }
    Cur = put(Cur, Str);
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
  /// Flushes to the stream, or grows the text to hold \p N more bytes.
  void makeRoom(size_t N) {
    if (!Text)
      return flush();
    size_t Used = Cur - Text->data();
    Text->resize_for_overwrite(
        std::max(2 * Text->size(), Used + std::max(N, Capacity)));
    Cur = Text->data() + Used;
    End = Text->data() + Text->size();
  }

  llvm::raw_ostream *OS = nullptr;
  std::unique_ptr<char[]> Buf;
  TextPiece *Text = nullptr;
  char *Cur;
  char *End;
};

} // namespace bbmap

#endif // BBMAP_SUPPORT_OUTPUTBUFFER_H
