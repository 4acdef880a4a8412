//===- dumper/OutputBuffer.h - fast text output buffer ----------*- C++ -*-===//
//
// OutputBuffer collects text in a 64 KiB buffer and hands it to a
// raw_ostream when full and on flush(). Writers reserve room for a whole
// line once and then append with unchecked copies and in-place number
// formatting, which is what makes bbmap-dump's text styles cheap per field.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_OUTPUTBUFFER_H
#define BBMAP_DUMPER_OUTPUTBUFFER_H

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

  /// Makes room for \p N more bytes; N is at most Capacity.
  void reserve(size_t N) {
    if (LLVM_UNLIKELY(static_cast<size_t>(End - Cur) < N))
      flush();
  }

  /// Appends text of any length (checked).
  void append(llvm::StringRef Text) {
    if (LLVM_UNLIKELY(Text.size() > static_cast<size_t>(End - Cur))) {
      flush();
      if (Text.size() > Capacity) {
        OS << Text;
        return;
      }
    }
    std::memcpy(Cur, Text.data(), Text.size());
    Cur += Text.size();
  }

  // Unchecked appends: the caller has reserved the room.

  void put(char C) { *Cur++ = C; }
  template <size_t N> void put(const char (&Text)[N]) {
    std::memcpy(Cur, Text, N - 1);
    Cur += N - 1;
  }
  void put(llvm::StringRef Text) {
    std::memcpy(Cur, Text.data(), Text.size());
    Cur += Text.size();
  }
  /// Copies all of \p Text (a fixed-size copy) but keeps only its first
  /// \p Keep bytes; needs room for all of it.
  template <size_t N> void putFirst(const char (&Text)[N], size_t Keep) {
    std::memcpy(Cur, Text, N - 1);
    Cur += Keep;
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
  /// "0x" and the hex digits of \p V, upper-case (as llvm::ScopedPrinter)
  /// or lower-case.
  void putHex(uint64_t V, bool UpperCase) {
    const char *Digits = UpperCase ? "0123456789ABCDEF" : "0123456789abcdef";
    unsigned N = (64 - llvm::countl_zero(V | 1) + 3) / 4;
    put("0x");
    Cur += N;
    char *P = Cur;
    do
      *--P = Digits[V & 0xf];
    while (V >>= 4);
  }

private:
  llvm::raw_ostream &OS;
  std::unique_ptr<char[]> Buf;
  char *Cur;
  char *End;
};

} // namespace bbmap

#endif // BBMAP_DUMPER_OUTPUTBUFFER_H
