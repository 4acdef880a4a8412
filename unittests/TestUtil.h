//===- TestUtil.h - helpers shared by the unit tests ------------*- C++ -*-===//
//
// What several unit tests need: the DecodeError inside an llvm::Error or a
// failed Expected, taken apart into its offset and reason, and the success
// of an Expected asserted with its message shown when it failed.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_UNITTESTS_TESTUTIL_H
#define BBMAP_UNITTESTS_TESTUTIL_H

#include "bbmap/Support/ByteReader.h"
#include "llvm/Support/Error.h"
#include "gtest/gtest.h"
#include <cstdint>
#include <string>

namespace bbmap {

/// A DecodeError's parts; Offset is UINT64_MAX when there was none.
struct Failure {
  uint64_t Offset = UINT64_MAX;
  std::string Reason;
};

/// The DecodeError \p E holds. Adds a test failure when \p E is success or
/// another kind of error.
inline Failure failureOf(llvm::Error E) {
  Failure F;
  if (!E) {
    ADD_FAILURE() << "expected a DecodeError, got success";
    return F;
  }
  llvm::handleAllErrors(
      std::move(E),
      [&](const DecodeError &D) {
        F.Offset = D.offset();
        F.Reason = D.reason();
      },
      [&](const llvm::ErrorInfoBase &Other) {
        ADD_FAILURE() << "expected a DecodeError, got: " << Other.message();
      });
  return F;
}

template <class T> Failure failureOf(llvm::Expected<T> V) {
  if (V) {
    ADD_FAILURE() << "expected a DecodeError, got a value";
    return {};
  }
  return failureOf(V.takeError());
}

/// The value of \p V, which must hold one (else the test stops with the
/// error's message).
#define BBMAP_ASSERT_VALUE(Var, Expr)                                          \
  auto Var = (Expr);                                                           \
  ASSERT_TRUE(static_cast<bool>(Var)) << llvm::toString(Var.takeError())

} // namespace bbmap

#endif // BBMAP_UNITTESTS_TESTUTIL_H
