//===- ByteReaderTest.cpp - ByteReader and DecodeError --------------------===//
//
// The cursor every decoder reads through: values in both byte orders and
// every LEB128 length, and for each way a field can be wrong (truncated,
// overlong, above its limit, a count the bytes left cannot hold) the
// DecodeError's offset, which is where the field starts, and its reason,
// which names the field.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/ByteReader.h"
#include "TestUtil.h"
#include "gtest/gtest.h"
#include <vector>

using namespace llvm;
using namespace bbmap;

namespace {

TEST(ByteReaderTest, FixedBothByteOrders) {
  std::vector<uint8_t> Bytes = {0x01, 0x02, 0x03, 0x04, 0x05,
                                0x06, 0x07, 0x08, 0x09};
  ByteReader LE(Bytes, /*IsLittleEndian=*/true);
  BBMAP_ASSERT_VALUE(A, LE.fixed(1, "a"));
  EXPECT_EQ(*A, 0x01u);
  BBMAP_ASSERT_VALUE(B, LE.fixed(8, "b"));
  EXPECT_EQ(*B, 0x0908070605040302u);
  EXPECT_TRUE(LE.atEnd());

  ByteReader BE(Bytes, /*IsLittleEndian=*/false);
  BBMAP_ASSERT_VALUE(C, BE.fixed(2, "c"));
  EXPECT_EQ(*C, 0x0102u);
  BBMAP_ASSERT_VALUE(D, BE.fixed(4, "d"));
  EXPECT_EQ(*D, 0x03040506u);
  EXPECT_EQ(BE.tell(), 6u);
  EXPECT_EQ(BE.bytesLeft(), 3u);
}

TEST(ByteReaderTest, FixedTruncated) {
  std::vector<uint8_t> Bytes = {1, 2, 3};
  ByteReader R(Bytes, true);
  ASSERT_TRUE(static_cast<bool>(R.fixed(1, "flags")));
  Failure F = failureOf(R.fixed(4, "function address"));
  EXPECT_EQ(F.Offset, 1u);
  EXPECT_EQ(F.Reason, "truncated function address: needs 4 bytes, 2 left");
  // Nothing was consumed.
  EXPECT_EQ(R.tell(), 1u);

  ByteReader Empty(ArrayRef<uint8_t>(), true);
  F = failureOf(Empty.fixed(1, "version"));
  EXPECT_EQ(F.Offset, 0u);
  EXPECT_EQ(F.Reason, "truncated version: needs 1 bytes, 0 left");
}

TEST(ByteReaderTest, ULEBEveryLength) {
  // For each length from 1 to 10 bytes, the largest value of that length.
  for (unsigned Len = 1; Len <= 10; ++Len) {
    std::vector<uint8_t> Bytes(Len, 0xff);
    Bytes.back() = Len == 10 ? 0x01 : 0x7f;
    uint64_t Expected = Len == 10 ? UINT64_MAX : (uint64_t(1) << 7 * Len) - 1;
    ByteReader R(Bytes, true);
    auto V = R.uleb("value", UINT64_MAX);
    ASSERT_TRUE(static_cast<bool>(V))
        << Len << " bytes: " << toString(V.takeError());
    EXPECT_EQ(*V, Expected) << Len << " bytes";
    EXPECT_TRUE(R.atEnd()) << Len << " bytes";
  }
  // A value of several bytes in the middle of the buffer.
  std::vector<uint8_t> Bytes = {0x00, 0xe5, 0x8e, 0x26, 0x05};
  ByteReader R(Bytes, true);
  ASSERT_TRUE(static_cast<bool>(R.uleb("a")));
  BBMAP_ASSERT_VALUE(V, R.uleb("b"));
  EXPECT_EQ(*V, 624485u);
  EXPECT_EQ(R.tell(), 4u);
}

TEST(ByteReaderTest, ULEBTruncated) {
  // Runs off the end after 0, 1, 2 and 9 continuation bytes, at offset 1.
  for (unsigned Len : {1u, 2u, 3u, 10u}) {
    std::vector<uint8_t> Bytes(Len + 1, 0x80);
    Bytes[0] = 0x00;
    if (Len == 1)
      Bytes.pop_back();
    ByteReader R(Bytes, true);
    ASSERT_TRUE(static_cast<bool>(R.uleb("first")));
    Failure F = failureOf(R.uleb("block size"));
    EXPECT_EQ(F.Offset, 1u) << Len;
    EXPECT_EQ(F.Reason, "truncated ULEB128 block size") << Len;
    EXPECT_EQ(R.tell(), 1u) << Len;
  }
}

TEST(ByteReaderTest, ULEBOverlong) {
  // Ten bytes whose last one carries bits above bit 63.
  std::vector<uint8_t> Bytes(10, 0xff);
  Bytes.back() = 0x7f;
  ByteReader R(Bytes, true);
  Failure F = failureOf(R.uleb("function entry count", UINT64_MAX));
  EXPECT_EQ(F.Offset, 0u);
  EXPECT_EQ(F.Reason, "ULEB128 function entry count does not fit in 64 bits");
}

TEST(ByteReaderTest, ULEBAboveLimit) {
  // 2^32 in five bytes, after one byte: above the default UINT32_MAX.
  std::vector<uint8_t> Bytes = {0x7f, 0x80, 0x80, 0x80, 0x80, 0x10};
  ByteReader R(Bytes, true);
  ASSERT_TRUE(static_cast<bool>(R.uleb("first")));
  Failure F = failureOf(R.uleb("block offset"));
  EXPECT_EQ(F.Offset, 1u);
  EXPECT_EQ(F.Reason, "block offset 0x100000000 exceeds UINT32_MAX");

  // A limit of 100: a value of one byte (the inline path) and of two.
  for (std::vector<uint8_t> Bytes :
       {std::vector<uint8_t>{0x65}, std::vector<uint8_t>{0xe5, 0x00}}) {
    ByteReader Small(Bytes, true);
    F = failureOf(Small.uleb("hot index", 100));
    EXPECT_EQ(F.Offset, 0u) << Bytes.size();
    EXPECT_EQ(F.Reason, "hot index 0x65 exceeds 0x64") << Bytes.size();
  }
  // 10 bytes (the out-of-line path), 2^63 + 2^56, above a limit of 2^63.
  std::vector<uint8_t> Big(10, 0x80);
  Big.back() = 0x01;
  Big[8] = 0x81;
  ByteReader R2(Big, true);
  F = failureOf(R2.uleb("count", uint64_t(1) << 63));
  EXPECT_EQ(F.Offset, 0u);
  EXPECT_EQ(F.Reason, "count 0x8100000000000000 exceeds 0x8000000000000000");
}

TEST(ByteReaderTest, SLEB) {
  std::vector<uint8_t> Bytes = {0x7f, 0x80, 0x7f, 0x3f, 0x80};
  ByteReader R(Bytes, true);
  BBMAP_ASSERT_VALUE(A, R.sleb("a"));
  EXPECT_EQ(*A, -1);
  BBMAP_ASSERT_VALUE(B, R.sleb("b"));
  EXPECT_EQ(*B, -128);
  BBMAP_ASSERT_VALUE(C, R.sleb("c"));
  EXPECT_EQ(*C, 63);
  Failure F = failureOf(R.sleb("input offset delta"));
  EXPECT_EQ(F.Offset, 4u);
  EXPECT_EQ(F.Reason, "truncated SLEB128 input offset delta");
  EXPECT_EQ(R.tell(), 4u);
}

TEST(ByteReaderTest, Bytes) {
  std::vector<uint8_t> Bytes = {1, 2, 3, 4, 5};
  ByteReader R(Bytes, true);
  BBMAP_ASSERT_VALUE(A, R.bytes(2, "a"));
  EXPECT_EQ(std::vector<uint8_t>(A->begin(), A->end()),
            std::vector<uint8_t>({1, 2}));
  Failure F = failureOf(R.bytes(4, "branch entry bitmask"));
  EXPECT_EQ(F.Offset, 2u);
  EXPECT_EQ(F.Reason, "truncated branch entry bitmask: needs 4 bytes, 3 left");
  // A length near 2^64 must not wrap the bounds check.
  F = failureOf(R.bytes(UINT64_MAX, "name"));
  EXPECT_EQ(F.Offset, 2u);
  BBMAP_ASSERT_VALUE(B, R.bytes(3, "b"));
  EXPECT_EQ(B->size(), 3u);
  EXPECT_TRUE(R.atEnd());
}

TEST(ByteReaderTest, CountFits) {
  // A count of 3 items of 2 bytes, with 6 bytes after it, then with 5.
  std::vector<uint8_t> Bytes = {3, 0, 0, 0, 0, 0, 0};
  ByteReader R(Bytes, true);
  BBMAP_ASSERT_VALUE(N, R.count("number of blocks", 2));
  EXPECT_EQ(*N, 3u);
  Bytes.pop_back();
  ByteReader Short(Bytes, true);
  Failure F = failureOf(Short.count("number of blocks", 2));
  EXPECT_EQ(F.Offset, 0u);
  EXPECT_EQ(F.Reason, "number of blocks 3 needs at least 6 bytes, 5 left");
}

TEST(ByteReaderTest, CountThatCannotFit) {
  // UINT64_MAX items of 16 bytes: the product saturates in the message, and
  // nothing wraps (16 * 2^60 would be 0 modulo 2^64).
  std::vector<uint8_t> Bytes(10, 0xff);
  Bytes.back() = 0x01;
  Bytes.push_back(0);
  ByteReader R(Bytes, true);
  Failure F = failureOf(R.count("number of pairs", 16, UINT64_MAX));
  EXPECT_EQ(F.Offset, 0u);
  EXPECT_EQ(F.Reason, "number of pairs 18446744073709551615 needs at least "
                      "18446744073709551615 bytes, 1 left");

  // 2^63 items of 2^60 bytes.
  std::vector<uint8_t> Wrap = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                               0x80, 0x80, 0x80, 0x01, 0,    0};
  ByteReader W(Wrap, true);
  F = failureOf(W.count("number of pairs", uint64_t(1) << 60, UINT64_MAX));
  EXPECT_EQ(F.Offset, 0u);
  EXPECT_EQ(F.Reason.rfind("number of pairs 9223372036854775808 needs", 0), 0u)
      << F.Reason;

  // The count's own limit comes first.
  std::vector<uint8_t> Over = {0x80, 0x80, 0x80, 0x80, 0x10};
  ByteReader O(Over, true);
  F = failureOf(O.count("number of entries", 1));
  EXPECT_EQ(F.Offset, 0u);
  EXPECT_EQ(F.Reason, "number of entries 0x100000000 exceeds UINT32_MAX");
}

TEST(ByteReaderTest, CountOfEmptyItems) {
  // Items of no bytes fit any count.
  std::vector<uint8_t> Bytes = {0xff, 0xff, 0x03};
  ByteReader R(Bytes, true);
  BBMAP_ASSERT_VALUE(N, R.count("number of blocks", 0));
  EXPECT_EQ(*N, 0xffffu);
}

TEST(ByteReaderTest, FixedCount) {
  // Big-endian u32 count 2 of 12-byte items, 24 bytes present, then 23.
  std::vector<uint8_t> Bytes(4 + 24, 0);
  Bytes[3] = 2;
  ByteReader R(Bytes, /*IsLittleEndian=*/false);
  BBMAP_ASSERT_VALUE(N, R.fixedCount(4, "number of functions", 12));
  EXPECT_EQ(*N, 2u);
  Bytes.pop_back();
  ByteReader Short(Bytes, false);
  Failure F = failureOf(Short.fixedCount(4, "number of functions", 12));
  EXPECT_EQ(F.Offset, 0u);
  EXPECT_EQ(F.Reason, "number of functions 2 needs at least 24 bytes, 23 left");
  ByteReader Cut(ArrayRef<uint8_t>(Bytes).take_front(3), false);
  F = failureOf(Cut.fixedCount(4, "number of functions", 12));
  EXPECT_EQ(F.Reason, "truncated number of functions: needs 4 bytes, 3 left");
}

TEST(ByteReaderTest, DecodeErrorText) {
  EXPECT_EQ(toString(decodeError(0x1c, "bad")), "offset 0x1c: bad");
  EXPECT_EQ(hex(0), "0x0");
  EXPECT_EQ(hex(0xabcdef), "0xabcdef");
  Error E = decodeError(7, "x");
  EXPECT_EQ(errorToErrorCode(std::move(E)),
            std::make_error_code(std::errc::illegal_byte_sequence));
}

} // namespace
