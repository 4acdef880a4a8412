//===- BATCommand.h - the --bat mode of bbmap-dump --------------*- C++ -*-===//
//
// Runs bbmap-dump's BAT mode over its input files: finds and decodes the
// BAT note, then dumps it, translates addresses (optionally chained to the
// input binary's blocks) and verifies it, in text or JSON. bbmap-dump.cpp
// only maps its options onto BATOptions.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_BATCOMMAND_H
#define BBMAP_DUMPER_BATCOMMAND_H

#include "bbmap/Object/BATTranslator.h"
#include "bbmap/Support/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace bbmap {

struct BATOptions {
  /// Print the tables.
  bool Dump = false;
  bool JSON = false;
  bool PrettyJSON = false;
  bool Verify = false;
  /// Print decode and translation times to stderr.
  bool Stats = false;
  std::vector<TranslateRequest> Requests;
  /// With requests: the input binary for the chained look-up, and the
  /// threads it is read on (0: the machine's hardware threads).
  std::string InputBinary;
  unsigned Threads = 0;
};

/// Processes every file, reporting errors and warnings through \p Diag;
/// returns false if anything failed (including verification findings).
bool runBAT(llvm::ArrayRef<std::string> Files, const BATOptions &Opts,
            Diagnostics &Diag);

} // namespace bbmap

#endif // BBMAP_DUMPER_BATCOMMAND_H
