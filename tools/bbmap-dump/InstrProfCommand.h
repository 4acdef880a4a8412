//===- InstrProfCommand.h - the --instr-profile mode of bbmap-dump -*- C++ -*-//
//
// Reads each input as an instrumentation profile (raw or indexed, by its
// magic) and prints it in the chosen style. bbmap-dump.cpp only maps its
// options onto InstrProfPrintOptions.
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
/// reported through \p Diag ("offset 0xN: what is wrong") and skipped.
/// Returns the exit status: 1 if any file failed.
int runInstrProfile(llvm::ArrayRef<std::string> Files,
                    const InstrProfPrintOptions &Opts, Diagnostics &Diag);

} // namespace bbmap

#endif // BBMAP_DUMPER_INSTRPROFCOMMAND_H
