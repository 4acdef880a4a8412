//===- BoltYAMLPrinter.h - BOLT YAML profile summaries ----------*- C++ -*-===//
//
// Output styles of `bbmap-dump --bolt-yaml`: a text summary (header fields,
// totals, one line per function), the same as JSON
// (docs/bbmap-bolt-yaml.schema.json), and the profile rewritten as BOLT
// writes it (writeBoltYAML).
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_BOLTYAMLPRINTER_H
#define BBMAP_DUMPER_BOLTYAMLPRINTER_H

#include "bbmap/BoltProfile/BoltYAML.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace bbmap {

enum class BoltYAMLStyle { Text, JSON, YAML };

struct BoltYAMLPrintOptions {
  BoltYAMLStyle Style = BoltYAMLStyle::Text;
  bool PrettyJSON = false;
  /// List only the functions of these names (all when empty).
  std::vector<std::string> Functions;
  /// List only the TopN functions of the highest `exec`, highest first
  /// (0: every function, in file order).
  unsigned TopN = 0;
};

/// Prints read profiles one after another.
class BoltYAMLPrinter {
public:
  virtual ~BoltYAMLPrinter() = default;
  virtual void
  printFile(llvm::StringRef Path, const boltyaml::Profile &P,
            llvm::ArrayRef<boltyaml::FunctionProblem> Problems) = 0;
  /// Ends the output (closes the JSON array).
  virtual void finish() {}
};

std::unique_ptr<BoltYAMLPrinter>
createBoltYAMLPrinter(llvm::raw_ostream &OS, const BoltYAMLPrintOptions &O);

} // namespace bbmap

#endif // BBMAP_DUMPER_BOLTYAMLPRINTER_H
