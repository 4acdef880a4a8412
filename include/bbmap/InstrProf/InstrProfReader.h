//===- InstrProfReader.h - read any instrumentation profile -----*- C++ -*-===//
//
// Reads an instrumentation profile file of either container, told apart by
// the magic (InstrProfReader::create does the same in LLVM): raw profiles
// go to decodeRawInstrProfile, indexed ones to the indexed decoder.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_INSTRPROF_INSTRPROFREADER_H
#define BBMAP_INSTRPROF_INSTRPROFREADER_H

#include "bbmap/InstrProf/InstrProfile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace bbmap {

/// Whether \p Bytes start with the indexed profile magic.
bool isIndexedInstrProfile(llvm::ArrayRef<uint8_t> Bytes);

/// Decodes the raw or indexed profile in \p Bytes. Errors are DecodeErrors
/// with the offset of what is wrong.
llvm::Expected<InstrProfileFile>
readInstrProfile(llvm::ArrayRef<uint8_t> Bytes);

} // namespace bbmap

#endif // BBMAP_INSTRPROF_INSTRPROFREADER_H
