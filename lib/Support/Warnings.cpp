//===- Warnings.cpp - problems of an input that reading went past ---------===//
//
// The kinds kept beside the messages, in order.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/Warnings.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace bbmap {

void WarningList::add(StringRef Kind, const Twine &Message) {
  if (llvm::is_contained(Kinds, Kind))
    return;
  Kinds.push_back(Kind.str());
  Messages.push_back(Message.str());
}

void WarningList::add(StringRef Kind, const Twine &Message, Error E) {
  add(Kind, Message + ": " + toString(std::move(E)));
}

void WarningList::append(const WarningList &Other) {
  for (size_t I = 0; I < Other.Messages.size(); ++I)
    if (!llvm::is_contained(Kinds, Other.Kinds[I])) {
      Kinds.push_back(Other.Kinds[I]);
      Messages.push_back(Other.Messages[I]);
    }
}

} // namespace bbmap
