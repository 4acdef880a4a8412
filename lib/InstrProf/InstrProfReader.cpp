//===- InstrProfReader.cpp - read any instrumentation profile -------------===//
//
// The magic decides the container: raw profiles go to the raw decoder,
// indexed ones to the indexed decoder.
//
//===----------------------------------------------------------------------===//

#include "bbmap/InstrProf/InstrProfReader.h"
#include "bbmap/InstrProf/IndexedInstrProfDecoder.h"
#include "bbmap/InstrProf/RawInstrProfDecoder.h"
#include "bbmap/Support/ByteReader.h"
#include "llvm/Support/Endian.h"

using namespace llvm;

namespace bbmap {

Error readInstrProfile(ArrayRef<uint8_t> Bytes, InstrProfConsumer &Consumer) {
  if (isRawInstrProfile(Bytes))
    return decodeRawInstrProfile(Bytes, Consumer);
  if (isIndexedInstrProfile(Bytes))
    return decodeIndexedInstrProfile(Bytes, Consumer);
  if (Bytes.size() < 8)
    return decodeError(0, "file of " + Twine(Bytes.size()) +
                              " bytes is too short for a profile magic");
  return decodeError(0, "not an instrumentation profile: magic " +
                            hex(support::endian::read64le(Bytes.data())) +
                            " is neither raw nor indexed");
}

Expected<InstrProfileFile> readInstrProfile(ArrayRef<uint8_t> Bytes) {
  InstrProfCollector Collector;
  if (Error E = readInstrProfile(Bytes, Collector))
    return E;
  return Collector.take();
}

} // namespace bbmap
