//===- JSONWriter.cpp - fast llvm-readobj JSON text -----------------------===//
//
// The out-of-line parts of JSONWriter: lists, and strings, copied as they
// are when nothing in them needs escaping and quoted by llvm::json
// otherwise.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/JSONWriter.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace bbmap {

void JSONWriter::list(StringRef Label, ArrayRef<uint32_t> Values) {
  Out.commit(OutputBuffer::put(attribute(Label), "["));
  push({Context::Array, Wrap::Attribute, false});
  for (uint32_t V : Values)
    Out.commit(OutputBuffer::putDecimal(valueBegin(), V));
  closeOne("]");
}

void JSONWriter::putString(StringRef Value) {
  // Printable ASCII other than '"' and '\\' is written as it is.
  bool Plain = llvm::all_of(Value, [](char C) {
    return C >= 0x20 && C < 0x7f && C != '"' && C != '\\';
  });
  if (LLVM_LIKELY(Plain && Value.size() + 2 <= OutputBuffer::Capacity)) {
    char *P = Out.reserve(Value.size() + 2);
    *P++ = '"';
    P = OutputBuffer::put(P, Value);
    *P++ = '"';
    Out.commit(P);
    return;
  }
  // What json::OStream writes for the value (invalid UTF-8 is repaired
  // first, as json::Value does).
  std::string Quoted;
  raw_string_ostream OS(Quoted);
  json::OStream(OS).value(json::isUTF8(Value) ? Value.str()
                                              : json::fixUTF8(Value));
  OS.flush();
  Out.append(Quoted);
}

} // namespace bbmap
