//===- InstrProfCommand.h - the --instr-profile mode of bbmap-dump -*- C++ -*-//
//
// Reads each input as an instrumentation profile (raw or indexed, by its
// magic) and prints it in the chosen style, or (--binary) how it fits a
// binary. bbmap-dump.cpp only maps its options onto these calls.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_INSTRPROFCOMMAND_H
#define BBMAP_DUMPER_INSTRPROFCOMMAND_H

#include "InstrProfPrinter.h"
#include "bbmap/Support/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace bbmap {

/// Decodes and prints every file; a file that cannot be read or decoded is
/// reported through \p Diag ("offset 0xN: what is wrong") after the text of
/// its profiles before the error (none in JSON).
/// Returns the exit status: 1 if any file failed.
int runInstrProfile(llvm::ArrayRef<std::string> Files,
                    const InstrProfPrintOptions &Opts, Diagnostics &Diag);

/// Decodes every file and prints, instead of the profile, how each of its
/// profiles fits \p BinaryPath (InstrProfMatchPrinter), read on \p Threads
/// threads. Returns the exit status: 1 if a file failed or a profile does
/// not fit.
int runInstrProfileMatch(llvm::ArrayRef<std::string> Files,
                         llvm::StringRef BinaryPath, bool JSON, bool Pretty,
                         unsigned Threads, Diagnostics &Diag);

} // namespace bbmap

#endif // BBMAP_DUMPER_INSTRPROFCOMMAND_H
