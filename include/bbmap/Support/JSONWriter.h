//===- JSONWriter.h - fast llvm-readobj JSON text ---------------*- C++ -*-===//
//
// JSONWriter writes the same bytes as llvm::JSONScopedPrinter (over
// llvm::json::OStream, compact or indented by two) through an OutputBuffer,
// with TextWriter's interface, so that one tree printer serves both of
// llvm-readobj's styles at the same speed. It keeps json::OStream's rules
// (a comma before every element but the first, a new line before each
// element and before the closing bracket of a non-empty scope when
// indenting) and JSONScopedPrinter's (a labelled scope opened inside an
// array is wrapped in an object of its own). Each line reserves its room
// once (indentation, label and value, labels of any length); numbers are
// formatted in place; strings that need escaping or are not UTF-8 are
// quoted by llvm::json. Labels are copied as they are, so they must need no
// escaping (printable ASCII without quotes or backslashes, as the tools'
// labels are).
//
// Threading: a JSONWriter and its OutputBuffer are one thread's; writers
// of distinct buffers may run at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_JSONWRITER_H
#define BBMAP_SUPPORT_JSONWRITER_H

#include "bbmap/Support/OutputBuffer.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace bbmap {

class JSONWriter {
public:
  /// A writer to \p Target (a raw_ostream or a TextPiece) at the top
  /// level; \p Pretty indents by two like llvm-readobj --pretty-print.
  template <class Target>
  JSONWriter(Target &T, bool Pretty)
      : Out(T), Pretty(Pretty), Top{Context::Singleton, Wrap::None, false} {}
  /// A writer that continues inside an array opened by another writer at
  /// nesting \p Depth (the number of enclosing arrays and objects), after
  /// that array's elements if \p HasElements: it writes further elements
  /// as the other writer would, and never closes the array.
  template <class Target>
  JSONWriter(Target &T, bool Pretty, unsigned Depth, bool HasElements)
      : Out(T), Pretty(Pretty), Indent(2 * Depth),
        Top{Context::Array, Wrap::None, HasElements} {}

  /// Hands the text written so far to the stream.
  void flush() { Out.flush(); }
  /// The nesting of the innermost open scope.
  unsigned depth() const { return Indent / 2; }
  /// Notes that the innermost array received elements from another writer.
  void setHasElements() { Top.HasValue = true; }

  void beginObject() { open(Context::Object, Wrap::None, "{"); }
  void beginObject(llvm::StringRef Label) {
    openLabelled(Label, Context::Object, "{");
  }
  void endObject() { close("}"); }
  void beginArray() { open(Context::Array, Wrap::None, "["); }
  void beginArray(llvm::StringRef Label) {
    openLabelled(Label, Context::Array, "[");
  }
  void endArray() { close("]"); }

  void string(llvm::StringRef Label, llvm::StringRef Value) {
    Out.commit(attribute(Label));
    putString(Value);
  }
  void number(llvm::StringRef Label, uint64_t Value) {
    Out.commit(OutputBuffer::putDecimal(attribute(Label), Value));
  }
  /// JSONScopedPrinter prints hex numbers as plain integers.
  void hex(llvm::StringRef Label, uint64_t Value) { number(Label, Value); }
  void boolean(llvm::StringRef Label, bool Value) {
    char *P = attribute(Label);
    Out.commit(Value ? OutputBuffer::put(P, "true")
                     : OutputBuffer::put(P, "false"));
  }
  void list(llvm::StringRef Label, llvm::ArrayRef<uint32_t> Values);
  /// The empty line of the LLVM style has no JSON counterpart.
  void blankLine() {}

private:
  /// json::OStream's contexts: an attribute's value, an array, an object.
  enum class Context : uint8_t { Singleton, Array, Object };
  /// How JSONScopedPrinter opened a scope: unlabelled, as an attribute of
  /// the enclosing object, or as the one attribute of a wrapping object.
  enum class Wrap : uint8_t { None, Attribute, Nested };
  struct Scope {
    Context Ctx;
    Wrap How;
    bool HasValue;
  };

  static constexpr char Spaces[] = "                                "
                                   "                                ";
  /// Room for a line beside its indentation and label: a comma and new
  /// line, the spaces separate() copies at once, the quotes, colon and
  /// space around the label, a number or a bracket.
  static constexpr size_t LineRoom =
      2 + sizeof(Spaces) + 4 + OutputBuffer::MaxNumberSize;

  /// A comma after a sibling, and the new line and indentation.
  char *separate(char *P, bool HasValue) {
    if (HasValue)
      *P++ = ',';
    if (!Pretty)
      return P;
    *P++ = '\n';
    if (LLVM_LIKELY(Indent < sizeof(Spaces))) {
      std::memcpy(P, Spaces, sizeof(Spaces) - 1);
      return P + Indent;
    }
    std::memset(P, ' ', Indent);
    return P + Indent;
  }
  /// Reserves room for a line of a label of \p LabelSize bytes and a
  /// number.
  char *reserveLine(size_t LabelSize = 0) {
    return Out.reserve(Indent + LabelSize + LineRoom);
  }
  /// `,\n  "Label": ` in the innermost object; returns where the value goes.
  char *attribute(llvm::StringRef Label) {
    char *P = separate(reserveLine(Label.size()), Top.HasValue);
    Top.HasValue = true;
    *P++ = '"';
    P = OutputBuffer::put(P, Label);
    *P++ = '"';
    *P++ = ':';
    if (Pretty)
      *P++ = ' ';
    return P;
  }
  /// Starts a value where the innermost scope expects one.
  char *valueBegin() {
    char *P = reserveLine();
    if (Top.Ctx == Context::Array)
      P = separate(P, Top.HasValue);
    else if (Top.HasValue)
      *P++ = ',';
    Top.HasValue = true;
    return P;
  }
  void open(Context Ctx, Wrap How, llvm::StringRef Bracket) {
    Out.commit(OutputBuffer::put(valueBegin(), Bracket));
    push({Ctx, How, false});
  }
  void push(Scope S) {
    Outer.push_back(Top);
    Top = S;
    Indent += 2;
  }
  void openLabelled(llvm::StringRef Label, Context Ctx,
                    llvm::StringRef Bracket) {
    Wrap How = Wrap::Attribute;
    if (Top.Ctx != Context::Object) {
      open(Context::Object, Wrap::None, "{");
      How = Wrap::Nested;
    }
    char *P = attribute(Label);
    Out.commit(OutputBuffer::put(P, Bracket));
    push({Ctx, How, false});
  }
  void close(llvm::StringRef Bracket) {
    Wrap How = Top.How;
    closeOne(Bracket);
    if (How == Wrap::Nested)
      closeOne("}");
  }
  void closeOne(llvm::StringRef Bracket) {
    Indent -= 2;
    char *P = reserveLine();
    if (Top.HasValue)
      P = separate(P, /*HasValue=*/false);
    Out.commit(OutputBuffer::put(P, Bracket));
    Top = Outer.pop_back_val();
  }
  void putString(llvm::StringRef Value);

  OutputBuffer Out;
  bool Pretty;
  unsigned Indent = 0;
  /// The innermost open scope, and those around it.
  Scope Top;
  llvm::SmallVector<Scope, 16> Outer;
};

} // namespace bbmap

#endif // BBMAP_SUPPORT_JSONWRITER_H
