//===- WriterScript.h - one script for every writer -------------*- C++ -*-===//
//
// The writers' tests run the same fields and scopes through TextWriter or
// JSONWriter and through the LLVM printer each mirrors (ScopedPrinter,
// JSONScopedPrinter, behind an adaptor with the writers' interface), and
// compare the bytes: one script of every kind of field with the labels the
// tests choose, up to a megabyte long, and random fields of random labels.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_UNITTESTS_SUPPORT_WRITERSCRIPT_H
#define BBMAP_UNITTESTS_SUPPORT_WRITERSCRIPT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ScopedPrinter.h"
#include <cstdint>
#include <random>
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

/// \p Fields random fields and scopes of random labels (0 to 300 bytes)
/// and values from \p Seed: several times a stream's buffer, so that lines
/// of every length end at its edge.
template <class Writer>
void writeRandom(Writer &W, uint64_t Seed, unsigned Fields) {
  std::mt19937_64 Rng(Seed);
  std::string Labels(300, ' ');
  for (size_t I = 0; I < Labels.size(); ++I)
    Labels[I] = 'a' + I % 26;
  auto Label = [&] { return llvm::StringRef(Labels).take_front(Rng() % 301); };
  unsigned Open = 0;
  W.beginObject();
  for (unsigned I = 0; I < Fields; ++I) {
    uint64_t Value = Rng() >> (Rng() % 64);
    switch (Rng() % 8) {
    case 0:
      W.number(Label(), Value);
      break;
    case 1:
      W.hex(Label(), Value);
      break;
    case 2:
      W.boolean(Label(), Value & 1);
      break;
    case 3:
      W.string(Label(), Label());
      break;
    case 4:
      W.list(Label(), {uint32_t(Value), uint32_t(Value >> 32)});
      break;
    case 5:
      if (Open < 40) {
        W.beginObject(Label());
        ++Open;
      }
      break;
    default:
      if (Open) {
        W.endObject();
        --Open;
      }
      break;
    }
  }
  for (; Open; --Open)
    W.endObject();
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
