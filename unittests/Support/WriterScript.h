//===- WriterScript.h - one script for every writer -------------*- C++ -*-===//
//
// The writers' tests run one script of fields and scopes, every label the
// one given, through TextWriter or JSONWriter and through the LLVM printer
// each mirrors (ScopedPrinter, JSONScopedPrinter, behind an adaptor with
// the writers' interface), and compare the bytes. The labels are as long
// as the tests choose, up to a megabyte: the writers reserve a line's room
// from its label.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_UNITTESTS_SUPPORT_WRITERSCRIPT_H
#define BBMAP_UNITTESTS_SUPPORT_WRITERSCRIPT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ScopedPrinter.h"
#include <cstdint>
#include <string>
#include <vector>

namespace bbmap {

/// ScopedPrinter (either style) with the writers' interface.
class PrinterAdaptor {
public:
  explicit PrinterAdaptor(llvm::ScopedPrinter &P) : P(P) {}
  void beginObject() { P.objectBegin(); }
  void beginObject(llvm::StringRef Label) { P.objectBegin(Label); }
  void endObject() { P.objectEnd(); }
  void beginArray(llvm::StringRef Label) { P.arrayBegin(Label); }
  void endArray() { P.arrayEnd(); }
  void string(llvm::StringRef Label, llvm::StringRef Value) {
    P.printString(Label, Value);
  }
  void number(llvm::StringRef Label, uint64_t Value) {
    P.printNumber(Label, Value);
  }
  void hex(llvm::StringRef Label, uint64_t Value) { P.printHex(Label, Value); }
  void boolean(llvm::StringRef Label, bool Value) {
    P.printBoolean(Label, Value);
  }
  void list(llvm::StringRef Label, llvm::ArrayRef<uint32_t> Values) {
    P.printList(Label, Values);
  }

private:
  llvm::ScopedPrinter &P;
};

/// Every kind of field and scope, each labelled \p Label, and the string
/// values \p Value.
template <class Writer>
void writeScript(Writer &W, llvm::StringRef Label, llvm::StringRef Value) {
  W.beginObject();
  W.number(Label, 42);
  W.hex(Label, 0x1f);
  W.boolean(Label, true);
  W.boolean(Label, false);
  W.string(Label, Value);
  W.list(Label, {1, 20, 300});
  W.list(Label, {});
  W.beginObject(Label);
  W.number(Label, UINT64_MAX);
  W.hex(Label, UINT64_MAX);
  W.endObject();
  W.beginArray(Label);
  W.beginObject();
  W.hex(Label, 0);
  W.endObject();
  W.beginObject(Label);
  W.string(Label, Value);
  W.endObject();
  W.endArray();
  W.beginArray(Label);
  W.endArray();
  W.endObject();
}

/// A label of \p Size printable bytes that need no escaping.
inline std::string labelOfSize(size_t Size) {
  std::string Label(Size, ' ');
  for (size_t I = 0; I < Size; ++I)
    Label[I] = 'A' + I % 26;
  return Label;
}

/// The label sizes every writer test covers: empty, around the margin the
/// writers once reserved for a label (64 bytes), longer than a line's
/// usual room, and longer than a stream's whole buffer.
inline std::vector<size_t> labelSizes() {
  return {0, 1, 63, 64, 65, 4096, size_t(1) << 20};
}

} // namespace bbmap

#endif // BBMAP_UNITTESTS_SUPPORT_WRITERSCRIPT_H
