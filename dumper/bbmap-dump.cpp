//===- dumper/bbmap-dump.cpp - bbmap-dump driver --------------------------===//
//
// Command-line entry point of bbmap-dump. Decoding lands with issue #3; for
// now the tool only identifies itself.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "bbmap-dump " << BBMAP_VERSION << "\n";
  });
  cl::ParseCommandLineOptions(argc, argv, "bbmap-dump: basic-block map and "
                                          "BOLT address translation dumper\n");
  errs() << "bbmap-dump: decoding is not implemented yet\n";
  return 1;
}
