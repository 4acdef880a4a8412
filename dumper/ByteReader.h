//===- dumper/ByteReader.h - bounds-checked decoding cursor -----*- C++ -*-===//
//
// A cursor over a byte buffer, shared by the .llvm_bb_addr_map and BAT
// decoders. Every read fails with a DecodeError naming the offset and the
// field being read; counts are checked against the bytes left before the
// caller allocates anything proportional to them.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_BYTEREADER_H
#define BBMAP_DUMPER_BYTEREADER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/Error.h"
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

class ByteReader {
public:
  ByteReader(llvm::ArrayRef<uint8_t> Bytes, bool IsLittleEndian,
             uint8_t AddressSize = 8)
      : Data(Bytes, IsLittleEndian, AddressSize), Cur(0),
        AddressSize(AddressSize) {}
  ~ByteReader() { llvm::consumeError(Cur.takeError()); }

  uint64_t tell() const { return Cur.tell(); }
  uint64_t size() const { return Data.size(); }
  uint64_t bytesLeft() const { return Data.size() - Cur.tell(); }
  bool atEnd() const { return Cur.tell() >= Data.size(); }
  uint8_t addressSize() const { return AddressSize; }

  /// Reads a fixed-width field of \p Size bytes in the buffer's byte order.
  llvm::Expected<uint64_t> fixed(unsigned Size, llvm::StringRef What);
  /// Reads a ULEB128 field and rejects values above \p Max.
  llvm::Expected<uint64_t> uleb(llvm::StringRef What,
                                uint64_t Max = UINT32_MAX);
  /// Reads an SLEB128 field.
  llvm::Expected<int64_t> sleb(llvm::StringRef What);
  /// Reads \p N raw bytes.
  llvm::Expected<llvm::ArrayRef<uint8_t>> bytes(uint64_t N,
                                                llvm::StringRef What);
  /// Reads a ULEB128 count of items that each take at least \p MinItemBytes
  /// bytes, and rejects counts that cannot fit in the bytes left.
  llvm::Expected<uint64_t> count(llvm::StringRef What, uint64_t MinItemBytes,
                                 uint64_t Max = UINT32_MAX);
  /// As count(), for a count stored as a fixed-width field of \p Size bytes.
  llvm::Expected<uint64_t> fixedCount(unsigned Size, llvm::StringRef What,
                                      uint64_t MinItemBytes);

private:
  /// True if the LEB128 at \p Offset has no terminating byte.
  bool lebRunsPastEnd(uint64_t Offset) const;
  /// The error for a failed LEB128 read that started at \p Start.
  llvm::Error lebError(uint64_t Start, const llvm::Twine &What);
  /// Fails if \p N items of \p MinItemBytes cannot fit in the bytes left.
  llvm::Error checkCount(uint64_t Start, llvm::StringRef What, uint64_t N,
                         uint64_t MinItemBytes) const;

  llvm::DataExtractor Data;
  llvm::DataExtractor::Cursor Cur;
  uint8_t AddressSize;
};

} // namespace bbmap

#endif // BBMAP_DUMPER_BYTEREADER_H
