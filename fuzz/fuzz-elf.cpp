//===- fuzz/fuzz-elf.cpp - fuzz bbmap-dump's whole ELF path ---------------===//
//
// libFuzzer target for what bbmap-dump does with one input file: the bytes
// go through dumpBuffer (object::createBinary, archive members,
// ELFMapReader, relocations, decompression, symbol names, decoding) and are
// printed in every output style to a null stream, diagnostics included.
//
//===----------------------------------------------------------------------===//

#include "DumpDriver.h"
#include "JSONStylePrinter.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>
#include <memory>

using namespace llvm;
using namespace bbmap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  MemoryBufferRef Buffer(StringRef(reinterpret_cast<const char *>(Data), Size),
                         "input");
  DumpOptions Opts;
  Opts.BBAddrMap = true;
  std::unique_ptr<LLVMStylePrinter> Printers[] = {
      std::make_unique<LLVMStylePrinter>(nulls(), /*PrettyPGO=*/false),
      std::make_unique<LLVMStylePrinter>(nulls(), /*PrettyPGO=*/true),
      std::make_unique<JSONStylePrinter>(nulls(), /*PrettyJSON=*/true,
                                         /*PrettyPGO=*/true)};
  for (std::unique_ptr<LLVMStylePrinter> &Printer : Printers) {
    Diagnostics Diag(nulls(), nulls());
    dumpBuffer(Buffer, Opts, *Printer, Diag);
  }
  return 0;
}
