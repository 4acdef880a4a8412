//===- PerfDataCommand.h - the --perf-data mode of bbmap-dump ---*- C++ -*-===//
//
// Prints perf.data files (file or pipe mode) as perf 6.1's perf script
// prints them (bbmap/Perf/PerfScript.h), one after the other, on the
// threads of the tool's OrderedOutput.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMP_PERFDATACOMMAND_H
#define BBMAP_DUMP_PERFDATACOMMAND_H

#include "bbmap/Perf/PerfScript.h"
#include "bbmap/Support/Diagnostics.h"
#include "bbmap/Support/OrderedOutput.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace bbmap {

/// Prints each file to \p Out; a file that cannot be read or is malformed
/// is one error, after the text of the records before it. Returns the exit
/// status (1 if any file failed).
int runPerfData(llvm::ArrayRef<std::string> Files,
                const perf::PerfScriptOptions &Opts, OrderedOutput &Out,
                Diagnostics &Diag);

} // namespace bbmap

#endif // BBMAP_DUMP_PERFDATACOMMAND_H
