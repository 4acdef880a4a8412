//===- IndexedInstrProfDecoder.h - indexed profile decoder ------*- C++ -*-===//
//
// Decodes an indexed instrumentation profile (.profdata, what `llvm-profdata
// merge` writes) into the InstrProfile model: the header of every indexed
// version from 1 to 13 (LLVM 14 writes 7, LLVM 19 12, LLVM 22 13), the
// profile summary and the context-sensitive one, the on-disk chained hash
// table of records (several records per name: context-sensitive and not,
// several CFG hashes) with its buckets checked against its entries,
// counters, bitmap bytes and value sites, and the sections later versions
// add: the memory profile (located, sized and its version read), binary
// IDs, temporal profile traces and vtable names. Every count is checked
// against the bytes it needs before anything is allocated for it; every
// failure is one DecodeError naming the offset and what is wrong. See
// docs/instrprof.md.
//
// Threading: the decoders keep no state: calls may run on several threads at
// once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_INSTRPROF_INDEXEDINSTRPROFDECODER_H
#define BBMAP_INSTRPROF_INDEXEDINSTRPROFDECODER_H

#include "bbmap/InstrProf/InstrProfile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace bbmap {

/// Whether \p Bytes start with the indexed profile magic.
bool isIndexedInstrProfile(llvm::ArrayRef<uint8_t> Bytes);

/// The indexed versions decodeIndexedInstrProfile reads: 1 to 13.
bool isSupportedIndexedVersion(uint32_t Version);

/// Decodes an indexed profile file (one profile) and passes the profile to
/// \p Consumer.
llvm::Error decodeIndexedInstrProfile(llvm::ArrayRef<uint8_t> Bytes,
                                      InstrProfConsumer &Consumer);

/// Decodes a whole indexed profile file (one profile).
llvm::Expected<InstrProfileFile>
decodeIndexedInstrProfile(llvm::ArrayRef<uint8_t> Bytes);

} // namespace bbmap

#endif // BBMAP_INSTRPROF_INDEXEDINSTRPROFDECODER_H
