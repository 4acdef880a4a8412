//===- InstrProfMatchPrinter.h - profile vs binary report -------*- C++ -*-===//
//
// What `bbmap-dump --instr-profile FILE --binary=BIN` prints for each
// profile: the binary IDs against BIN's build ID, the records that name a
// function of BIN and those that name none, BIN's functions without a
// record, and the verdict; as text or JSON (docs/instrprof.md).
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_INSTRPROFMATCHPRINTER_H
#define BBMAP_DUMPER_INSTRPROFMATCHPRINTER_H

#include "bbmap/Object/InstrProfMatch.h"
#include "bbmap/Object/MappedBinary.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace bbmap {

/// The profile fits the binary: no other build ID, every record names one
/// of its functions.
bool isMatch(const InstrProfMatch &M);

void printMatchText(llvm::raw_ostream &OS, llvm::StringRef ProfilePath,
                    const InstrProfile &P, const MappedBinary &Binary,
                    const InstrProfMatch &M);

/// One JSON object (docs/bbmap-instrprof-match.schema.json).
void printMatchJSON(llvm::json::OStream &J, llvm::StringRef ProfilePath,
                    const InstrProfile &P, const MappedBinary &Binary,
                    const InstrProfMatch &M);

} // namespace bbmap

#endif // BBMAP_DUMPER_INSTRPROFMATCHPRINTER_H
