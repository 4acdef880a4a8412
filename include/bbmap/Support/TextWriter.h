//===- TextWriter.h - fast llvm-readobj LLVM-style text ---------*- C++ -*-===//
//
// TextWriter writes the same bytes as llvm::ScopedPrinter's LLVM style
// (two spaces per level, "Label: value" lines, "Label {" / "Label [" scopes,
// "0x" and upper-case hex) through an OutputBuffer: each line reserves its
// room once (indentation, label and value, labels of any length), then the
// indentation and label are copied and the number is formatted in place,
// with no virtual call or temporary string per field.
//
// Threading: a TextWriter and its OutputBuffer are one thread's; writers
// of distinct buffers may run at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_TEXTWRITER_H
#define BBMAP_SUPPORT_TEXTWRITER_H

#include "bbmap/Support/OutputBuffer.h"
#include "llvm/ADT/ArrayRef.h"

namespace bbmap {

class TextWriter {
public:
  /// A writer to \p Target (a raw_ostream or a TextPiece) at nesting
  /// \p Depth (e.g. to continue another writer's scope).
  template <class Target>
  explicit TextWriter(Target &T, unsigned Depth = 0) : Out(T), Depth(Depth) {}

  /// Hands the text written so far to the stream.
  void flush() { Out.flush(); }
  unsigned depth() const { return Depth; }

  void beginObject() { scopeLine("{"); }
  void beginObject(llvm::StringRef Label) { scopeLine(Label, " {"); }
  void endObject() { endScope("}"); }
  void beginArray(llvm::StringRef Label) { scopeLine(Label, " ["); }
  void endArray() { endScope("]"); }

  /// An empty line (at the current indentation, as ScopedPrinter does).
  void blankLine() { endLine(startLine(LineRoom)); }
  void string(llvm::StringRef Label, llvm::StringRef Value) {
    Out.commit(field(Label));
    Out.append(Value);
    Out.append("\n");
  }
  void number(llvm::StringRef Label, uint64_t Value) {
    endLine(OutputBuffer::putDecimal(field(Label), Value));
  }
  void hex(llvm::StringRef Label, uint64_t Value) {
    endLine(OutputBuffer::putHex(field(Label), Value, /*UpperCase=*/true));
  }
  void boolean(llvm::StringRef Label, bool Value) {
    char *P = field(Label);
    Out.commit(Value ? OutputBuffer::put(P, "Yes\n")
                     : OutputBuffer::put(P, "No\n"));
  }
  /// "Label: [1, 2, 3]".
  void list(llvm::StringRef Label, llvm::ArrayRef<uint32_t> Values) {
    Out.commit(OutputBuffer::put(field(Label), "["));
    for (size_t I = 0; I < Values.size(); ++I) {
      char *P = Out.reserve(OutputBuffer::MaxNumberSize + 2);
      if (I)
        P = OutputBuffer::put(P, ", ");
      Out.commit(OutputBuffer::putDecimal(P, Values[I]));
    }
    Out.append("]\n");
  }

private:
  /// Room for what follows a label on a line: ": ", a number (or "Yes",
  /// " {"), the new line.
  static constexpr size_t LineRoom = 2 + OutputBuffer::MaxNumberSize + 2;
  static constexpr char Spaces[] = "                                "
                                   "                                ";

  /// Reserves room for the indentation and \p Room more bytes, and writes
  /// the indentation.
  char *startLine(size_t Room) {
    size_t Width = 2 * Depth;
    char *P = Out.reserve(std::max(Width, sizeof(Spaces)) + Room);
    if (LLVM_LIKELY(Width < sizeof(Spaces)))
      std::memcpy(P, Spaces, sizeof(Spaces) - 1);
    else
      std::memset(P, ' ', Width);
    return P + Width;
  }
  void endLine(char *P) {
    *P++ = '\n';
    Out.commit(P);
  }
  /// "<indent>Label: ", with room for a number and the new line after it.
  char *field(llvm::StringRef Label) {
    char *P = startLine(Label.size() + LineRoom);
    return OutputBuffer::put(OutputBuffer::put(P, Label), ": ");
  }
  /// \p Open is " {", " [" or nothing; ScopedPrinter writes no space
  /// after an empty label.
  void scopeLine(llvm::StringRef Label, llvm::StringRef Open = "") {
    char *P = startLine(Label.size() + LineRoom);
    if (LLVM_UNLIKELY(Label.empty()))
      Open = Open.ltrim(' ');
    endLine(OutputBuffer::put(OutputBuffer::put(P, Label), Open));
    ++Depth;
  }
  void endScope(llvm::StringRef Close) {
    --Depth;
    endLine(OutputBuffer::put(startLine(LineRoom), Close));
  }

  OutputBuffer Out;
  unsigned Depth;
};

} // namespace bbmap

#endif // BBMAP_SUPPORT_TEXTWRITER_H
