//===- LayoutCheckCommand.h - the --check-layout mode of bbmap-dump -*- C++
//-*-//
//
// Checks that a rebuilt binary realizes a cluster profile and a symbol
// order (bbmap/Layout/LayoutCheck.h) and prints the result as text or JSON.
// bbmap-dump.cpp only maps its options onto this call.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMP_LAYOUTCHECKCOMMAND_H
#define BBMAP_DUMP_LAYOUTCHECKCOMMAND_H

#include "bbmap/Layout/LayoutCheck.h"
#include "bbmap/Support/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace bbmap {

struct LayoutCheckOptions {
  /// The cluster profile (empty: none, only the order is checked), the
  /// symbol ordering file, and the binary the profile was taken on.
  std::string ClustersPath, SymbolOrderPath, ProfiledPath;
  bool JSON = false;
  bool PrettyJSON = false;
  /// The threads the binaries are read on (0: the machine's hardware
  /// threads).
  unsigned Threads = 0;
};

/// Prints \p Result: a line per function, the symbol order, the blocks
/// the compiler added, and a summary line; or one JSON object.
void printLayoutCheck(const LayoutCheckResult &Result,
                      const LayoutCheckOptions &Opts, llvm::raw_ostream &OS);

/// Checks \p RebuiltPath; returns the exit status: 0 when the binary
/// realizes the layout, 1 when it does not or an input cannot be read.
int runLayoutCheck(const std::string &RebuiltPath,
                   const LayoutCheckOptions &Opts, Diagnostics &Diag);

} // namespace bbmap

#endif // BBMAP_DUMP_LAYOUTCHECKCOMMAND_H
