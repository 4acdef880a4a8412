//===- Warnings.cpp - problems of an input that reading went past ---------===//
//
// The kinds kept beside the messages, in order, under one lock.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/Warnings.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace bbmap {

WarningList &WarningList::operator=(const WarningList &Other) {
  if (this == &Other)
    return *this;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Kinds.clear();
    Messages.clear();
  }
  append(Other);
  return *this;
}

void WarningList::add(StringRef Kind, const Twine &Message) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (llvm::is_contained(Kinds, Kind))
    return;
  Kinds.push_back(Kind.str());
  Messages.push_back(Message.str());
}

void WarningList::add(StringRef Kind, const Twine &Message, Error E) {
  add(Kind, Message + ": " + toString(std::move(E)));
}

void WarningList::append(const WarningList &Other) {
  if (this == &Other)
    return;
  std::scoped_lock Lock(Mutex, Other.Mutex);
  for (size_t I = 0; I < Other.Messages.size(); ++I)
    if (!llvm::is_contained(Kinds, Other.Kinds[I])) {
      Kinds.push_back(Other.Kinds[I]);
      Messages.push_back(Other.Messages[I]);
    }
}

} // namespace bbmap
