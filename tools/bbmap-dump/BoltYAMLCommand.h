//===- BoltYAMLCommand.h - the --bolt-yaml mode of bbmap-dump ---*- C++ -*-===//
//
// Reads each input as a BOLT YAML profile and prints its summary, its JSON
// or its YAML as BOLT writes it. bbmap-dump.cpp only maps its options onto
// this call.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_BOLTYAMLCOMMAND_H
#define BBMAP_DUMPER_BOLTYAMLCOMMAND_H

#include "BoltYAMLPrinter.h"
#include "bbmap/Support/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace bbmap {

/// Reads and prints every file. A file that cannot be read is reported as
/// an error ("file:line:column: what is wrong") and skipped; the functions
/// the reader left out are reported as warnings. Returns the exit status:
/// 1 if any file failed.
int runBoltYAML(llvm::ArrayRef<std::string> Files,
                const BoltYAMLPrintOptions &Opts, Diagnostics &Diag);

} // namespace bbmap

#endif // BBMAP_DUMPER_BOLTYAMLCOMMAND_H
