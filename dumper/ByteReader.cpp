//===- dumper/ByteReader.cpp - bounds-checked decoding cursor -------------===//
//
// ByteReader and DecodeError: reads through llvm::DataExtractor's cursor and
// turns its failures into DecodeErrors that say which field at which offset
// was truncated, overlong or out of range.
//
//===----------------------------------------------------------------------===//

#include "ByteReader.h"
#include "llvm/ADT/StringExtras.h"
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

Expected<uint64_t> ByteReader::fixed(unsigned Size, StringRef What) {
  uint64_t Start = tell();
  uint64_t Value = Data.getUnsigned(Cur, Size);
  if (Cur)
    return Value;
  consumeError(Cur.takeError());
  return decodeError(Start, "truncated " + What + ": needs " + Twine(Size) +
                                " bytes, " + Twine(Data.size() - Start) +
                                " left");
}

bool ByteReader::lebRunsPastEnd(uint64_t Offset) const {
  StringRef Bytes = Data.getData();
  for (uint64_t I = Offset; I < Bytes.size(); ++I)
    if (!(static_cast<uint8_t>(Bytes[I]) & 0x80))
      return false;
  return true;
}

Error ByteReader::lebError(uint64_t Start, const Twine &What) {
  consumeError(Cur.takeError());
  if (lebRunsPastEnd(Start))
    return decodeError(Start, "truncated " + What);
  return decodeError(Start, What + " does not fit in 64 bits");
}

Expected<uint64_t> ByteReader::uleb(StringRef What, uint64_t Max) {
  uint64_t Start = tell();
  uint64_t Value = Data.getULEB128(Cur);
  if (!Cur)
    return lebError(Start, "ULEB128 " + What);
  if (Value > Max)
    return decodeError(
        Start, What + " " + hex(Value) + " exceeds " +
                   (Max == UINT32_MAX ? "UINT32_MAX" : hex(Max).c_str()));
  return Value;
}

Expected<int64_t> ByteReader::sleb(StringRef What) {
  uint64_t Start = tell();
  int64_t Value = Data.getSLEB128(Cur);
  if (!Cur)
    return lebError(Start, "SLEB128 " + What);
  return Value;
}

Expected<ArrayRef<uint8_t>> ByteReader::bytes(uint64_t N, StringRef What) {
  uint64_t Start = tell();
  if (N > bytesLeft())
    return decodeError(Start, "truncated " + What + ": needs " + Twine(N) +
                                  " bytes, " + Twine(bytesLeft()) + " left");
  StringRef S = Data.getBytes(Cur, N);
  return arrayRefFromStringRef(S);
}

Error ByteReader::checkCount(uint64_t Start, StringRef What, uint64_t N,
                             uint64_t MinItemBytes) const {
  if (MinItemBytes == 0 || N <= bytesLeft() / MinItemBytes)
    return Error::success();
  return decodeError(Start, What + " " + Twine(N) + " needs at least " +
                                Twine(SaturatingMultiply(N, MinItemBytes)) +
                                " bytes, " + Twine(bytesLeft()) + " left");
}

Expected<uint64_t> ByteReader::count(StringRef What, uint64_t MinItemBytes,
                                     uint64_t Max) {
  uint64_t Start = tell();
  Expected<uint64_t> N = uleb(What, Max);
  if (!N)
    return N;
  if (Error E = checkCount(Start, What, *N, MinItemBytes))
    return E;
  return N;
}

Expected<uint64_t> ByteReader::fixedCount(unsigned Size, StringRef What,
                                          uint64_t MinItemBytes) {
  uint64_t Start = tell();
  Expected<uint64_t> N = fixed(Size, What);
  if (!N)
    return N;
  if (Error E = checkCount(Start, What, *N, MinItemBytes))
    return E;
  return N;
}

} // namespace bbmap
