//===- ByteReader.h - bounds-checked decoding cursor ------------*- C++ -*-===//
//
// A cursor over a byte buffer, shared by the .llvm_bb_addr_map and BAT
// decoders. Every read fails with a DecodeError naming the offset and the
// field being read; counts are checked against the bytes left before the
// caller allocates anything proportional to them.
//
// Threading: a ByteReader is one thread's cursor; the bytes it reads may be
// shared.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_BYTEREADER_H
#define BBMAP_SUPPORT_BYTEREADER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/Error.h"
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <string>

namespace bbmap {

/// A malformed record: where it is and what is wrong.
class DecodeError : public llvm::ErrorInfo<DecodeError> {
public:
  static char ID;

  DecodeError(uint64_t Offset, std::string Message)
      : Offset(Offset), Message(std::move(Message)) {}

  uint64_t offset() const { return Offset; }
  const std::string &reason() const { return Message; }
  /// Prints "offset 0x1c: <message>".
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  uint64_t Offset;
  std::string Message;
};

/// Creates a DecodeError.
llvm::Error decodeError(uint64_t Offset, const llvm::Twine &Msg);

/// "0x" followed by lower-case hex digits.
std::string hex(uint64_t V);

/// The cursor. Fixed-width fields and the common one-byte to nine-byte
/// ULEB128 values are read inline (the map decoder reads millions); long,
/// truncated or overlong values and every error take out-of-line paths.
class ByteReader {
public:
  ByteReader(llvm::ArrayRef<uint8_t> Bytes, bool IsLittleEndian,
             uint8_t AddressSize = 8)
      : Bytes(Bytes), IsLittleEndian(IsLittleEndian), AddressSize(AddressSize) {
  }

  uint64_t tell() const { return Pos; }
  /// Moves to \p Offset, which must be within the buffer (or at its end).
  void seek(uint64_t Offset) {
    assert(Offset <= Bytes.size() && "seek past the end");
    Pos = Offset;
  }
  uint64_t size() const { return Bytes.size(); }
  /// The whole buffer, for a caller's own unchecked fast path.
  llvm::ArrayRef<uint8_t> buffer() const { return Bytes; }
  uint64_t bytesLeft() const { return Bytes.size() - Pos; }
  bool atEnd() const { return Pos >= Bytes.size(); }
  uint8_t addressSize() const { return AddressSize; }

  /// Reads a fixed-width field of \p Size bytes in the buffer's byte order.
  llvm::Expected<uint64_t> fixed(unsigned Size, llvm::StringRef What) {
    if (LLVM_UNLIKELY(bytesLeft() < Size))
      return truncated(Size, What);
    uint64_t Value = 0;
    for (unsigned I = 0; I < Size; ++I) {
      unsigned Byte = IsLittleEndian ? Size - 1 - I : I;
      Value = Value << 8 | Bytes[Pos + Byte];
    }
    Pos += Size;
    return Value;
  }

  /// Reads a ULEB128 field and rejects values above \p Max.
  llvm::Expected<uint64_t> uleb(llvm::StringRef What,
                                uint64_t Max = UINT32_MAX) {
    // One-byte values (the limit test folds away for a constant Max of 127
    // or more, as every decoder passes).
    if (LLVM_LIKELY(Pos < Bytes.size() && !(Bytes[Pos] & 0x80) &&
                    Bytes[Pos] <= Max))
      return Bytes[Pos++];
    // Up to nine bytes (63 bits) cannot overflow.
    const uint8_t *P = Bytes.data() + Pos;
    const uint8_t *End = P + std::min<uint64_t>(bytesLeft(), 9);
    uint64_t Value = 0;
    for (unsigned Shift = 0; P != End; Shift += 7) {
      uint8_t Byte = *P++;
      Value |= uint64_t(Byte & 0x7f) << Shift;
      if (!(Byte & 0x80)) {
        if (LLVM_UNLIKELY(Value > Max))
          return tooLarge(Pos, What, Value, Max);
        Pos = P - Bytes.data();
        return Value;
      }
    }
    return slowULEB(What, Max);
  }

  /// Reads an SLEB128 field.
  llvm::Expected<int64_t> sleb(llvm::StringRef What);
  /// Reads \p N raw bytes.
  llvm::Expected<llvm::ArrayRef<uint8_t>> bytes(uint64_t N,
                                                llvm::StringRef What);

  /// Reads a ULEB128 count of items that each take at least \p MinItemBytes
  /// bytes, and rejects counts that cannot fit in the bytes left.
  llvm::Expected<uint64_t> count(llvm::StringRef What, uint64_t MinItemBytes,
                                 uint64_t Max = UINT32_MAX) {
    uint64_t Start = tell();
    llvm::Expected<uint64_t> N = uleb(What, Max);
    if (!N)
      return N;
    if (LLVM_UNLIKELY(!fits(*N, MinItemBytes)))
      return tooMany(Start, What, *N, MinItemBytes);
    return N;
  }

  /// As count(), for a count stored as a fixed-width field of \p Size bytes.
  llvm::Expected<uint64_t> fixedCount(unsigned Size, llvm::StringRef What,
                                      uint64_t MinItemBytes);

private:
  /// Whether \p N items of \p MinItemBytes fit in the bytes left; divides
  /// only when it has to.
  bool fits(uint64_t N, uint64_t MinItemBytes) const {
    uint64_t Left = bytesLeft();
    return MinItemBytes == 0 ||
           (N <= Left && (MinItemBytes == 1 || N <= Left / MinItemBytes));
  }
  llvm::Error truncated(uint64_t Size, llvm::StringRef What) const;
  llvm::Error tooMany(uint64_t Start, llvm::StringRef What, uint64_t N,
                      uint64_t MinItemBytes) const;
  static llvm::Error tooLarge(uint64_t Start, llvm::StringRef What,
                              uint64_t Value, uint64_t Max);
  llvm::Expected<uint64_t> slowULEB(llvm::StringRef What, uint64_t Max);
  /// True if the LEB128 at \p Offset has no terminating byte.
  bool lebRunsPastEnd(uint64_t Offset) const;
  /// The error for a failed LEB128 read that started at \p Start.
  llvm::Error lebError(uint64_t Start, const llvm::Twine &What) const;

  llvm::ArrayRef<uint8_t> Bytes;
  uint64_t Pos = 0;
  bool IsLittleEndian;
  uint8_t AddressSize;
};

} // namespace bbmap

#endif // BBMAP_SUPPORT_BYTEREADER_H
