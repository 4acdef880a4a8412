//===- InstrProfReader.cpp - read any instrumentation profile -------------===//
//
// The magic decides the container. The indexed decoder is not written yet:
// an indexed file is an error that says so.
//
//===----------------------------------------------------------------------===//

#include "bbmap/InstrProf/InstrProfReader.h"
#include "bbmap/InstrProf/RawInstrProfDecoder.h"
#include "bbmap/Support/ByteReader.h"
#include "llvm/Support/Endian.h"

using namespace llvm;

namespace bbmap {

/// IndexedInstrProf::Magic: "\xfflprofi\x81", little-endian.
constexpr uint64_t IndexedMagic = 0x8169666f72706cffULL;

bool isIndexedInstrProfile(ArrayRef<uint8_t> Bytes) {
  return Bytes.size() >= 8 &&
         support::endian::read64le(Bytes.data()) == IndexedMagic;
}

Expected<InstrProfileFile> readInstrProfile(ArrayRef<uint8_t> Bytes) {
  if (isRawInstrProfile(Bytes))
    return decodeRawInstrProfile(Bytes);
  if (isIndexedInstrProfile(Bytes))
    return decodeError(0, "indexed instrumentation profiles are not decoded "
                          "yet (only raw .profraw files)");
  if (Bytes.size() < 8)
    return decodeError(0, "file of " + Twine(Bytes.size()) +
                              " bytes is too short for a profile magic");
  return decodeError(0, "not an instrumentation profile: magic " +
                            hex(support::endian::read64le(Bytes.data())) +
                            " is neither raw nor indexed");
}

} // namespace bbmap
