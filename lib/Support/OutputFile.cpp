//===- OutputFile.cpp - a file that appears whole or not at all -----------===//
//
// sys::fs::TempFile names the temporary file after the target
// ("<target>-<random>.tmp") and renames or removes it. llvm::writeToOutput
// does the same for one output written by one callback; a run here
// commits several outputs together, and writes a device or a pipe in place.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/OutputFile.h"

using namespace llvm;

namespace bbmap {

OutputFile::OutputFile(std::string P, std::optional<sys::fs::TempFile> T)
    : Path(std::move(P)), Temp(std::move(T)) {
  if (!Temp) {
    OS = &outs();
    return;
  }
  Owned = std::make_unique<raw_fd_ostream>(Temp->FD, /*shouldClose=*/false);
  OS = Owned.get();
}

/// A target that is not a regular file (/dev/null, a terminal, a pipe)
/// cannot be replaced by a rename: it is written in place.
static bool writtenInPlace(StringRef Path) {
  sys::fs::file_status Status;
  return Path == "-" || (!sys::fs::status(Path, Status) &&
                         Status.type() != sys::fs::file_type::regular_file);
}

Expected<std::unique_ptr<OutputFile>> OutputFile::create(StringRef Path,
                                                         size_t BufferSize) {
  std::unique_ptr<OutputFile> F;
  if (writtenInPlace(Path)) {
    F.reset(new OutputFile(Path.str(), std::nullopt));
    if (Path != "-") {
      std::error_code EC;
      F->Owned = std::make_unique<raw_fd_ostream>(Path, EC);
      if (EC)
        return createFileError(Path, EC);
      F->OS = F->Owned.get();
    }
  } else {
    Expected<sys::fs::TempFile> Temp =
        sys::fs::TempFile::create(Path + "-%%%%%%.tmp");
    if (!Temp)
      return createFileError(Path, Temp.takeError());
    F.reset(new OutputFile(Path.str(), std::move(*Temp)));
  }
  if (BufferSize && F->Owned)
    F->Owned->SetBufferSize(BufferSize);
  return F;
}

OutputFile::~OutputFile() {
  if (Owned) {
    // An error of an output given up is not reported.
    Owned->flush();
    Owned->clear_error();
    Owned.reset();
  }
  if (!Temp)
    return;
  // The temporary file is the only thing left to undo; a failure to
  // remove it leaves a "*.tmp" file, not a wrong output.
  consumeError(Temp->discard());
}

Error OutputFile::commit() {
  OS->flush();
  if (!Owned)
    return Error::success();
  std::error_code EC = Owned->error();
  Owned->clear_error();
  Owned.reset();
  if (EC)
    return createFileError(Path, EC);
  if (!Temp)
    return Error::success();
  if (Error E = Temp->keep(Path))
    return createFileError(Path, std::move(E));
  Temp.reset();
  return Error::success();
}

} // namespace bbmap
