//===- RawInstrProfDecoder.h - raw instrumentation profile decoder -*- C++ -*-//
//
// Decodes a raw instrumentation profile (.profraw, what an instrumented
// program writes) into the InstrProfile model. Raw versions 8 (LLVM 14 to
// 16), 9 (LLVM 17 and 18, adds MC/DC bitmaps) and 10 (LLVM 19 to 22, adds
// vtable profiles), 32- and 64-bit pointers, either byte order; 8-byte and
// single-byte counters, temporal timestamps, bitmap bytes, zlib-compressed
// or plain names, value profiles (indirect-call targets resolved to name
// MD5s through the records' function addresses, memop sizes, vtable
// targets). Several profiles concatenated in one file are decoded one after
// another, each handed to the consumer before the next is read. Every size is
// checked against the file before anything is allocated for it; every failure
// is a DecodeError naming the offset and what is wrong. See docs/instrprof.md.
//
// Threading: the decoders keep no state: calls may run on several threads at
// once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_INSTRPROF_RAWINSTRPROFDECODER_H
#define BBMAP_INSTRPROF_RAWINSTRPROFDECODER_H

#include "bbmap/InstrProf/InstrProfile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace bbmap {

/// Whether \p Bytes start with a raw profile magic (either pointer size,
/// either byte order).
bool isRawInstrProfile(llvm::ArrayRef<uint8_t> Bytes);

/// The raw versions decodeRawInstrProfile reads: 8, 9 and 10.
bool isSupportedRawVersion(uint32_t Version);

/// Decodes a raw profile file, passing each of its profiles to \p Consumer
/// as soon as it is decoded; stops at the first error.
llvm::Error decodeRawInstrProfile(llvm::ArrayRef<uint8_t> Bytes,
                                  InstrProfConsumer &Consumer);

/// Decodes a whole raw profile file.
llvm::Expected<InstrProfileFile>
decodeRawInstrProfile(llvm::ArrayRef<uint8_t> Bytes);

} // namespace bbmap

#endif // BBMAP_INSTRPROF_RAWINSTRPROFDECODER_H
