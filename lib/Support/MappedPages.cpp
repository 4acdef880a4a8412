//===- MappedPages.cpp - give back pages of a file already read -----------===//
//
// madvise(MADV_DONTNEED) on the whole pages of a read-only file mapping.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/MappedPages.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include <algorithm>
#include <sys/mman.h>

using namespace llvm;

void bbmap::releaseMappedPages(MemoryBufferRef Buffer, uint64_t From,
                               uint64_t To) {
  To = std::min<uint64_t>(To, Buffer.getBufferSize());
  uint64_t Page = sys::Process::getPageSizeEstimate();
  uintptr_t Base = reinterpret_cast<uintptr_t>(Buffer.getBufferStart());
  uintptr_t First = alignTo(Base + From, Page);
  uintptr_t End = alignDown(Base + To, Page);
  if (End > First)
    ::madvise(reinterpret_cast<void *>(First), End - First, MADV_DONTNEED);
}
