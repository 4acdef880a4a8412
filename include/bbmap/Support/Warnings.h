//===- Warnings.h - problems of an input that reading went past -*- C++ -*-===//
//
// Library code that goes on past a problem of its input (a symbol whose
// name cannot be read, an unreadable dynamic table) does not print it: it
// keeps one warning per kind of problem, the first met, and the tool prints
// the list naming the file, as llvm-readobj's reportUniqueWarning prints
// each warning once.
//
// Threading: add and append may be called concurrently (workers that read
// functions of one file share its list); messages() once they are done.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_WARNINGS_H
#define BBMAP_SUPPORT_WARNINGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <mutex>
#include <string>
#include <vector>

namespace bbmap {

class WarningList {
public:
  WarningList() = default;
  WarningList(const WarningList &Other) { append(Other); }
  WarningList &operator=(const WarningList &Other);

  /// Keeps \p Message unless a warning of \p Kind is kept already.
  void add(llvm::StringRef Kind, const llvm::Twine &Message);
  /// Keeps "<Message>: <E's message>" likewise; consumes \p E either way.
  void add(llvm::StringRef Kind, const llvm::Twine &Message, llvm::Error E);
  /// Adds the warnings of \p Other whose kinds are not kept yet.
  void append(const WarningList &Other);
  /// The warnings, in the order added.
  llvm::ArrayRef<std::string> messages() const { return Messages; }

private:
  mutable std::mutex Mutex;
  /// The kind of each message (few: a linear search finds one).
  std::vector<std::string> Kinds;
  std::vector<std::string> Messages;
};

} // namespace bbmap

#endif // BBMAP_SUPPORT_WARNINGS_H
