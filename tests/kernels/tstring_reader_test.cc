// Reading TF_TString elements a kernel wrote (harness/kernels/tstring_reader.h): every valid form
// reads back its bytes, and an element whose size or pointer is garbage reads back as a text
// saying what is wrong, without the harness touching the bad memory; ForgetInvalidStringElements
// resets only such elements, so freeing the tensor afterwards frees nothing it should not.
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/string_values.h"
#include "kernels/tstring_reader.h"
#include "tensorflow/c/tf_tstring.h"

namespace conformance::kernels {
namespace {

// A page the process may not read: a pointer into it is what a stale or made-up one looks like.
class TStringReaderOnUnreadablePage : public ::testing::Test {
 protected:
  void SetUp() override {
    page_ = mmap(nullptr, PageSize(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(page_, MAP_FAILED);
  }
  void TearDown() override { munmap(page_, PageSize()); }
  static std::size_t PageSize() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }
  char* page() const { return static_cast<char*>(page_); }

 private:
  void* page_ = nullptr;
};

TF_TString Large(std::size_t size, std::size_t cap, char* ptr) {
  TF_TString element;
  TF_TString_Init(&element);
  element.u.large.size = (size << 2) | TF_TSTR_LARGE;
  element.u.large.cap = cap;
  element.u.large.ptr = ptr;
  return element;
}

TEST(TStringReader, EveryValidFormReadsBackItsBytes) {
  TStringReader reader;
  TF_TString small;
  TF_TString_Init(&small);
  TF_TString_Copy(&small, "inline", 6);
  EXPECT_EQ(reader.Read(small), "inline");

  const std::string long_text(300, 'x');
  TF_TString large;
  TF_TString_Init(&large);
  TF_TString_Copy(&large, long_text.data(), long_text.size());
  ASSERT_EQ(TF_TString_GetType(&large), TF_TSTR_LARGE);
  EXPECT_EQ(reader.Read(large), long_text);
  EXPECT_TRUE(reader.Valid(large));
  TF_TString_Dealloc(&large);

  const std::string viewed = "a view of bytes someone else owns, longer than 22";
  TF_TString view;
  TF_TString_Init(&view);
  TF_TString_AssignView(&view, viewed.data(), viewed.size());
  EXPECT_EQ(reader.Read(view), viewed);

  TF_TString empty;
  TF_TString_Init(&empty);
  EXPECT_EQ(reader.Read(empty), "");
}

TEST(TStringReader, MoreThanAPipeHoldsIsReadInChunks) {
  const std::string text(200 * 1024 + 7, 'q');
  TF_TString element;
  TF_TString_Init(&element);
  TF_TString_Copy(&element, text.data(), text.size());
  TStringReader reader;
  EXPECT_EQ(reader.Read(element), text);
  TF_TString_Dealloc(&element);
}

TEST_F(TStringReaderOnUnreadablePage, APointerToUnreadableMemoryIsReportedNotRead) {
  TStringReader reader;
  const TF_TString element = Large(40, 64, page());
  EXPECT_FALSE(reader.Valid(element));
  const std::string text = reader.Read(element);
  EXPECT_EQ(text.rfind("<invalid TF_TString: data not readable (large form, size 40", 0), 0)
      << text;
}

TEST_F(TStringReaderOnUnreadablePage, BytesThatEndInUnreadableMemoryAreInvalidToo) {
  // Readable memory right before the page: the first bytes read, the rest do not.
  void* before =
      mmap(nullptr, 2 * PageSize(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(before, MAP_FAILED);
  ASSERT_EQ(mprotect(static_cast<char*>(before) + PageSize(), PageSize(), PROT_NONE), 0);
  char* tail = static_cast<char*>(before) + PageSize() - 10;
  TStringReader reader;
  EXPECT_FALSE(reader.Valid(Large(100, 100, tail)));
  EXPECT_TRUE(reader.Valid(Large(10, 10, tail)));
  munmap(before, 2 * PageSize());
}

TEST(TStringReader, SizesNoValidElementHasAreReported) {
  TStringReader reader;
  char bytes[64] = {};
  EXPECT_NE(reader.Read(Large(50, 10, bytes)).find("size over its capacity"), std::string::npos);
  EXPECT_NE(reader.Read(Large(kLongestBelievedString + 1, kLongestBelievedString + 1, bytes))
                .find("implausible size"),
            std::string::npos);
  EXPECT_NE(reader.Read(Large(8, 8, nullptr)).find("null data pointer"), std::string::npos);
  TF_TString small;
  TF_TString_Init(&small);
  small.u.smll.size = static_cast<std::uint8_t>(30 << 2);  // small form, 30 bytes: over 22
  EXPECT_NE(reader.Read(small).find("size over 22 bytes"), std::string::npos);
}

TEST(TStringReader, FloatBytesOverAStringTensorFailWithoutACrash) {
  // What a kernel that copies its float input into a string output leaves: 4 elements' worth.
  std::vector<TF_TString> elements(4);
  std::vector<float> floats(elements.size() * sizeof(TF_TString) / sizeof(float));
  for (std::size_t i = 0; i < floats.size(); ++i) floats[i] = 7.590858f * static_cast<float>(i + 1);
  std::memcpy(elements.data(), floats.data(), floats.size() * sizeof(float));
  const std::vector<std::string> read =
      ReadStringElements(elements.data(), static_cast<std::int64_t>(elements.size()));
  ASSERT_EQ(read.size(), elements.size());
  std::size_t invalid = 0;
  for (const std::string& value : read) invalid += value.rfind("<invalid TF_TString", 0) == 0;
  EXPECT_GT(invalid, 0U);
  // Forgotten, they are empty small strings: freeing them frees nothing.
  ForgetInvalidStringElements(elements.data(), static_cast<std::int64_t>(elements.size()));
  TStringReader reader;
  for (TF_TString& element : elements) {
    EXPECT_TRUE(reader.Valid(element));
    TF_TString_Dealloc(&element);
  }
}

TEST(TStringReader, ForgettingLeavesValidElementsAlone) {
  std::vector<TF_TString> elements(2);
  for (TF_TString& element : elements) TF_TString_Init(&element);
  const std::string long_text(40, 'z');
  TF_TString_Copy(&elements[0], long_text.data(), long_text.size());
  elements[1] = Large(50, 10, nullptr);
  ForgetInvalidStringElements(elements.data(), 2);
  TStringReader reader;
  EXPECT_EQ(reader.Read(elements[0]), long_text);
  EXPECT_EQ(TF_TString_GetSize(&elements[1]), 0U);
  TF_TString_Dealloc(&elements[0]);
}

}  // namespace
}  // namespace conformance::kernels
