//===- AnyKeyMap.h - hash tables keyed by any value of a type ---*- C++ -*-===//
//
// DenseMap and DenseSet keep two values of their key type for themselves
// (DenseMapInfo's empty and tombstone keys: for unsigned integers the two
// largest, for signed ones the largest and the smallest). A key read from
// input (an ID, an address, a hash) can be either; inserted, it corrupts the
// table, and looked up, it finds a bucket that was never written. AnyKey<T>
// holds any value of T and a tag that only the table's own two keys set, so
// every value of T is a key: AnyKeyMap and AnyKeySet are the tables for
// keys that come from input.
//
// Threading: as DenseMap's: const access may be concurrent, writes need one
// owner.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_ANYKEYMAP_H
#define BBMAP_SUPPORT_ANYKEYMAP_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <cstdint>
#include <type_traits>

namespace bbmap {

/// A key of any value of the integer type \p T.
template <typename T> struct AnyKey {
  static_assert(std::is_integral_v<T>, "AnyKey holds an integer");

  /// Implicit, so that tables take the value itself: Map[ID], Set.count(A).
  AnyKey(T Value) : Value(Value) {}

  /// The table's own keys, which no value of T equals.
  static AnyKey reserved(uint8_t Tag) {
    AnyKey K(T{});
    K.Reserved = Tag;
    return K;
  }

  T Value;
  /// 0 in every key made from a value.
  uint8_t Reserved = 0;
};

template <typename KeyT, typename ValueT>
using AnyKeyMap = llvm::DenseMap<AnyKey<KeyT>, ValueT>;
template <typename KeyT> using AnyKeySet = llvm::DenseSet<AnyKey<KeyT>>;

} // namespace bbmap

namespace llvm {

template <typename T> struct DenseMapInfo<bbmap::AnyKey<T>> {
  static bbmap::AnyKey<T> getEmptyKey() {
    return bbmap::AnyKey<T>::reserved(1);
  }
  static bbmap::AnyKey<T> getTombstoneKey() {
    return bbmap::AnyKey<T>::reserved(2);
  }
  static unsigned getHashValue(const bbmap::AnyKey<T> &K) {
    return DenseMapInfo<T>::getHashValue(K.Value);
  }
  static bool isEqual(const bbmap::AnyKey<T> &A, const bbmap::AnyKey<T> &B) {
    return A.Value == B.Value && A.Reserved == B.Reserved;
  }
};

} // namespace llvm

#endif // BBMAP_SUPPORT_ANYKEYMAP_H
