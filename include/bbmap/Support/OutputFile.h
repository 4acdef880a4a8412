//===- OutputFile.h - a file that appears whole or not at all --*- C++ -*-===//
//
// An output written to a temporary file beside its target and renamed onto
// it by commit(): a reader (a build script, the next tool) finds the old
// file or the whole new one, never an empty or partial one. Destroyed
// without commit(), the temporary file is removed. "-" is standard output;
// it and targets that are not regular files (/dev/null, a pipe) are
// written in place.
//
// Threading: one OutputFile is used by one thread at a time; distinct
// files may be written concurrently.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_OUTPUTFILE_H
#define BBMAP_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>
#include <string>

namespace bbmap {

class OutputFile {
public:
  /// Creates the temporary file beside \p Path (in its directory, so that
  /// the rename stays on one file system); \p BufferSize is the stream's.
  static llvm::Expected<std::unique_ptr<OutputFile>>
  create(llvm::StringRef Path, size_t BufferSize = 0);
  ~OutputFile();

  llvm::raw_ostream &os() { return *OS; }
  llvm::StringRef path() const { return Path; }

  /// Flushes the stream and renames the temporary file onto the target;
  /// an error (a failed write, the rename) names the target.
  llvm::Error commit();

private:
  OutputFile(std::string Path, std::optional<llvm::sys::fs::TempFile> Temp);

  std::string Path;
  std::optional<llvm::sys::fs::TempFile> Temp;
  std::unique_ptr<llvm::raw_fd_ostream> Owned;
  llvm::raw_ostream *OS;
};

} // namespace bbmap

#endif // BBMAP_SUPPORT_OUTPUTFILE_H
