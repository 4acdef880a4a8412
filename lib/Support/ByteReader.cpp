//===- ByteReader.cpp - bounds-checked decoding cursor --------------------===//
//
// DecodeError and ByteReader's out-of-line paths: long LEB128 values go
// through llvm::DataExtractor, and every failure becomes a DecodeError that
// says which field at which offset was truncated, overlong or out of range.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/ByteReader.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace bbmap {

char DecodeError::ID = 0;

void DecodeError::log(raw_ostream &OS) const {
  OS << "offset 0x" << Twine::utohexstr(Offset) << ": " << Message;
}

std::error_code DecodeError::convertToErrorCode() const {
  return std::make_error_code(std::errc::illegal_byte_sequence);
}

Error decodeError(uint64_t Offset, const Twine &Msg) {
  return make_error<DecodeError>(Offset, Msg.str());
}

std::string hex(uint64_t V) { return "0x" + Twine::utohexstr(V).str(); }

Error ByteReader::truncated(uint64_t Size, StringRef What) const {
  return decodeError(Pos, "truncated " + What + ": needs " + Twine(Size) +
                              " bytes, " + Twine(bytesLeft()) + " left");
}

Error ByteReader::tooMany(uint64_t Start, StringRef What, uint64_t N,
                          uint64_t MinItemBytes) const {
  return decodeError(Start, What + " " + Twine(N) + " needs at least " +
                                Twine(SaturatingMultiply(N, MinItemBytes)) +
                                " bytes, " + Twine(bytesLeft()) + " left");
}

Error ByteReader::tooLarge(uint64_t Start, StringRef What, uint64_t Value,
                           uint64_t Max) {
  return decodeError(Start,
                     What + " " + hex(Value) + " exceeds " +
                         (Max == UINT32_MAX ? "UINT32_MAX" : hex(Max).c_str()));
}

bool ByteReader::lebRunsPastEnd(uint64_t Offset) const {
  for (uint64_t I = Offset; I < Bytes.size(); ++I)
    if (!(Bytes[I] & 0x80))
      return false;
  return true;
}

Error ByteReader::lebError(uint64_t Start, const Twine &What) const {
  if (lebRunsPastEnd(Start))
    return decodeError(Start, "truncated " + What);
  return decodeError(Start, What + " does not fit in 64 bits");
}

Expected<uint64_t> ByteReader::slowULEB(StringRef What, uint64_t Max) {
  uint64_t Start = Pos;
  DataExtractor Data(Bytes, IsLittleEndian, AddressSize);
  Error Err = Error::success();
  uint64_t Value = Data.getULEB128(&Pos, &Err);
  if (Err) {
    // Replaced by a DecodeError that names the field and its offset.
    consumeError(std::move(Err));
    Pos = Start;
    return lebError(Start, "ULEB128 " + What);
  }
  if (Value > Max)
    return tooLarge(Start, What, Value, Max);
  return Value;
}

Expected<int64_t> ByteReader::sleb(StringRef What) {
  uint64_t Start = Pos;
  DataExtractor Data(Bytes, IsLittleEndian, AddressSize);
  Error Err = Error::success();
  int64_t Value = Data.getSLEB128(&Pos, &Err);
  if (Err) {
    // Replaced by a DecodeError that names the field and its offset.
    consumeError(std::move(Err));
    Pos = Start;
    return lebError(Start, "SLEB128 " + What);
  }
  return Value;
}

Expected<ArrayRef<uint8_t>> ByteReader::bytes(uint64_t N, StringRef What) {
  if (N > bytesLeft())
    return truncated(N, What);
  ArrayRef<uint8_t> Result = Bytes.slice(Pos, N);
  Pos += N;
  return Result;
}

Expected<uint64_t> ByteReader::fixedCount(unsigned Size, StringRef What,
                                          uint64_t MinItemBytes) {
  uint64_t Start = tell();
  Expected<uint64_t> N = fixed(Size, What);
  if (!N)
    return N;
  if (!fits(*N, MinItemBytes))
    return tooMany(Start, What, *N, MinItemBytes);
  return N;
}

} // namespace bbmap
