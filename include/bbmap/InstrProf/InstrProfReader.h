//===- InstrProfReader.h - read any instrumentation profile -----*- C++ -*-===//
//
// Reads an instrumentation profile file of either container, told apart by
// the magic (InstrProfReader::create does the same in LLVM): raw profiles
// go to decodeRawInstrProfile, indexed ones to decodeIndexedInstrProfile.
//
// Threading: the readers keep no state: calls may run on several threads at
// once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_INSTRPROF_INSTRPROFREADER_H
#define BBMAP_INSTRPROF_INSTRPROFREADER_H

#include "bbmap/InstrProf/InstrProfile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace bbmap {

/// Decodes the raw or indexed profile in \p Bytes, passing its profiles to
/// \p Consumer one at a time. Errors are DecodeErrors with the offset of
/// what is wrong; the profiles before it have been passed.
llvm::Error readInstrProfile(llvm::ArrayRef<uint8_t> Bytes,
                             InstrProfConsumer &Consumer);

/// Decodes the raw or indexed profile in \p Bytes whole.
llvm::Expected<InstrProfileFile>
readInstrProfile(llvm::ArrayRef<uint8_t> Bytes);

} // namespace bbmap

#endif // BBMAP_INSTRPROF_INSTRPROFREADER_H
