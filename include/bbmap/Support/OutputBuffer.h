//===- OutputBuffer.h - fast text output buffer -----------------*- C++ -*-===//
//
// OutputBuffer collects text for a target: a raw_ostream, through a 64 KiB
// buffer handed over when full and on flush(), or a growing text (a piece
// of output made on another thread), written in place. A writer reserves
// room for a whole line once, fills it through a local pointer with the
// unchecked put* helpers (copies and in-place number formatting) and
// commits the new end: that is what makes bbmap-dump's text styles cheap
// per field. A reservation of any size is honoured (the stream's buffer
// grows for one larger than itself), so a writer that reserves what its
// line can take, labels and names included, never writes out of bounds.
//
// Threading: an OutputBuffer is one thread's.
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
  /// The size of a stream's buffer (a larger reserve() grows it).
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

  /// Makes room for \p N more bytes and returns where they go; commit()
  /// then marks how far they were written.
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
  /// Two digits per division, from a table of "00" to "99"; the length
  /// from the bit width, without dividing.
  static char *putDecimal(char *P, uint64_t V) {
    char *End = P + decimalDigits(V);
    P = End;
    while (V >= 100) {
      P -= 2;
      std::memcpy(P, &DigitPairs[2 * (V % 100)], 2);
      V /= 100;
    }
    if (V >= 10) {
      P -= 2;
      std::memcpy(P, &DigitPairs[2 * V], 2);
    } else {
      *--P = '0' + V;
    }
    return End;
  }
  static unsigned decimalDigits(uint64_t V) {
    if (V < 10)
      return 1;
    // log10(2) ~ 1233 / 4096: from the bit width, at most one too many.
    unsigned Guess = (64 - llvm::countl_zero(V)) * 1233 >> 12;
    return Guess + 1 - (V < PowersOf10[Guess]);
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
  static constexpr char DigitPairs[] =
      "0001020304050607080910111213141516171819202122232425262728293031323334"
      "3536373839404142434445464748495051525354555657585960616263646566676869"
      "707172737475767778798081828384858687888990919293949596979899";
  static constexpr uint64_t PowersOf10[] = {1,
                                            10,
                                            100,
                                            1000,
                                            10000,
                                            100000,
                                            1000000,
                                            10000000,
                                            100000000,
                                            1000000000,
                                            10000000000,
                                            100000000000,
                                            1000000000000,
                                            10000000000000,
                                            100000000000000,
                                            1000000000000000,
                                            10000000000000000,
                                            100000000000000000,
                                            1000000000000000000,
                                            10000000000000000000u};

  /// Flushes to the stream (growing the buffer if \p N bytes exceed it),
  /// or grows the text to hold \p N more bytes.
  void makeRoom(size_t N) {
    if (!Text) {
      flush();
      if (LLVM_UNLIKELY(N > static_cast<size_t>(End - Cur))) {
        Buf.reset(new char[N]);
        Cur = Buf.get();
        End = Cur + N;
      }
      return;
    }
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
