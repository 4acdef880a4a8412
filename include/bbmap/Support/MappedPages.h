//===- MappedPages.h - give back pages of a file already read ---*- C++ -*-===//
//
// The streaming readers (perf.data, concatenated instrumentation profiles)
// map their input read-only and hand the pages behind what they have read
// back to the system, so that memory follows what is being decoded, not
// the file's size. A page touched again comes back from the page cache.
//
// Threading: the functions keep no state: calls may run on several threads at
// once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_MAPPEDPAGES_H
#define BBMAP_SUPPORT_MAPPEDPAGES_H

#include <cstdint>

namespace llvm {
class MemoryBufferRef;
} // namespace llvm

namespace bbmap {

/// Gives back the whole pages of \p Buffer, a read-only mapping of a file,
/// between offsets \p From and \p To (clamped to the buffer).
void releaseMappedPages(llvm::MemoryBufferRef Buffer, uint64_t From,
                        uint64_t To);

} // namespace bbmap

#endif // BBMAP_SUPPORT_MAPPEDPAGES_H
