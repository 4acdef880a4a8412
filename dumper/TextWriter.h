//===- dumper/TextWriter.h - fast llvm-readobj LLVM-style text --*- C++ -*-===//
//
// TextWriter writes the same bytes as llvm::ScopedPrinter's LLVM style
// (two spaces per level, "Label: value" lines, "Label {" / "Label [" scopes,
// "0x" and upper-case hex) through an OutputBuffer: each line reserves its
// room once, then labels are copied and numbers formatted in place, with no
// virtual call or temporary string per field.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_TEXTWRITER_H
#define BBMAP_DUMPER_TEXTWRITER_H

#include "OutputBuffer.h"
#include "llvm/ADT/ArrayRef.h"

namespace bbmap {

class TextWriter {
public:
  explicit TextWriter(llvm::raw_ostream &OS) : Out(OS) {}

  /// Hands the text written so far to the stream.
  void flush() { Out.flush(); }

  void beginObject() { scopeLine("{"); }
  void beginObject(llvm::StringRef Label) { scopeLine(Label, " {"); }
  void endObject() { endScope("}"); }
  void beginArray(llvm::StringRef Label) { scopeLine(Label, " ["); }
  void endArray() { endScope("]"); }

  /// An empty line (at the current indentation, as ScopedPrinter does).
  void blankLine() {
    startLine();
    Out.put('\n');
  }
  void string(llvm::StringRef Label, llvm::StringRef Value) {
    field(Label);
    Out.append(Value);
    Out.reserve(1);
    Out.put('\n');
  }
  void number(llvm::StringRef Label, uint64_t Value) {
    field(Label);
    Out.putDecimal(Value);
    Out.put('\n');
  }
  void hex(llvm::StringRef Label, uint64_t Value) {
    field(Label);
    Out.putHex(Value, /*UpperCase=*/true);
    Out.put('\n');
  }
  void boolean(llvm::StringRef Label, bool Value) {
    field(Label);
    if (Value)
      Out.put("Yes\n");
    else
      Out.put("No\n");
  }
  /// "Label: [1, 2, 3]".
  void list(llvm::StringRef Label, llvm::ArrayRef<uint32_t> Values) {
    field(Label);
    Out.put('[');
    for (size_t I = 0; I < Values.size(); ++I) {
      Out.reserve(OutputBuffer::MaxNumberSize + 2);
      if (I)
        Out.put(", ");
      Out.putDecimal(Values[I]);
    }
    Out.reserve(2);
    Out.put("]\n");
  }

private:
  static constexpr size_t MaxLabel = 64;
  /// Room for a line's indentation, label and number.
  static constexpr size_t MaxFixedLine = MaxLabel + 64;
  static constexpr char Spaces[] = "                                "
                                   "                                ";

  /// Reserves room for a line and writes its indentation.
  void startLine() {
    size_t Width = 2 * Depth;
    Out.reserve(MaxFixedLine + std::max(Width, sizeof(Spaces)));
    if (LLVM_LIKELY(Width < sizeof(Spaces)))
      return Out.putFirst(Spaces, Width);
    for (size_t I = 0; I < Width; ++I)
      Out.put(' ');
  }
  void field(llvm::StringRef Label) {
    startLine();
    putLabel(Label);
    Out.put(": ");
  }
  void scopeLine(llvm::StringRef Label, llvm::StringRef Open = "") {
    startLine();
    putLabel(Label);
    Out.put(Open);
    Out.put('\n');
    ++Depth;
  }
  void endScope(llvm::StringRef Close) {
    --Depth;
    startLine();
    Out.put(Close);
    Out.put('\n');
  }
  /// Labels are short literals, within the room startLine reserves.
  void putLabel(llvm::StringRef Label) {
    assert(Label.size() <= MaxLabel && "label too long");
    Out.put(Label);
  }

  OutputBuffer Out;
  unsigned Depth = 0;
};

} // namespace bbmap

#endif // BBMAP_DUMPER_TEXTWRITER_H
