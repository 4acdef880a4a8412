//===- BoltYAMLCommand.cpp - the --bolt-yaml mode of bbmap-dump -----------===//
//
// One pass over the inputs: map the file, read it with readBoltYAML, report
// the functions it left out, print it. Output of earlier files is flushed
// before a message is printed (Diagnostics does).
//
//===----------------------------------------------------------------------===//

#include "BoltYAMLCommand.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace bbmap {

int runBoltYAML(ArrayRef<std::string> Files, const BoltYAMLPrintOptions &Opts,
                Diagnostics &Diag) {
  std::unique_ptr<BoltYAMLPrinter> Printer =
      createBoltYAMLPrinter(outs(), Opts);
  for (const std::string &File : Files) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        MemoryBuffer::getFileOrSTDIN(File, /*IsText=*/true);
    if (!Buffer) {
      Diag.error(File, Buffer.getError().message());
      continue;
    }
    std::vector<boltyaml::FunctionProblem> Problems;
    Expected<boltyaml::Profile> P = boltyaml::readBoltYAML(**Buffer, &Problems);
    if (!P) {
      Diag.error(toString(P.takeError()));
      continue;
    }
    for (const boltyaml::FunctionProblem &Problem : Problems)
      Diag.warning(File, "function '" + Problem.Name +
                             "' left out: " + Problem.Message);
    Printer->printFile(File, *P, Problems);
  }
  Printer->finish();
  outs().flush();
  return Diag.hadError() ? 1 : 0;
}

} // namespace bbmap
