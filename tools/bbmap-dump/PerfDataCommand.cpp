//===- PerfDataCommand.cpp - the --perf-data mode of bbmap-dump -----------===//
//
// Opens each input (a file is mapped, its pages given back as printing
// goes; `-` is standard input) and prints it with printPerfScript.
//
//===----------------------------------------------------------------------===//

#include "PerfDataCommand.h"
#include "bbmap/Perf/PerfFile.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace bbmap {

namespace {

Error printFile(const MemoryBuffer &Buffer, const perf::PerfScriptOptions &Opts,
                OrderedOutput &Out) {
  Expected<std::unique_ptr<perf::PerfFile>> File =
      perf::PerfFile::create(Buffer.getMemBufferRef());
  if (!File)
    return File.takeError();
  (*File)->setMapped(Buffer.getBufferKind() == MemoryBuffer::MemoryBuffer_MMap);
  return perf::printPerfScript(**File, Opts, Out);
}

} // namespace

int runPerfData(ArrayRef<std::string> Files,
                const perf::PerfScriptOptions &Opts, OrderedOutput &Out,
                Diagnostics &Diag) {
  for (const std::string &Path : Files) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      Diag.error(Path, Buffer.getError().message());
      continue;
    }
    // printPerfScript returns once its text is written: the error follows.
    if (Error E = printFile(**Buffer, Opts, Out))
      Diag.error(Path, toString(std::move(E)));
  }
  Out.finish();
  return Diag.hadError() ? 1 : 0;
}

} // namespace bbmap
