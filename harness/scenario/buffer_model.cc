#include "scenario/buffer_model.h"

#include <algorithm>
#include <cstring>

namespace conformance::scenario {

namespace {

bool AllKnown(const uint8_t* known, uint64_t size) { return !std::memchr(known, 0, size); }
bool AnyKnown(const uint8_t* known, uint64_t size) { return std::memchr(known, 1, size); }
bool AllEqual(const uint8_t* bytes, uint64_t size) {
  return size == 0 || std::memcmp(bytes, bytes + 1, size - 1) == 0;
}

}  // namespace

std::optional<Difference> FirstDifference(const ExpectedBytes& expected, const uint8_t* actual) {
  const uint64_t size = expected.bytes.size();
  if (AllKnown(expected.known.data(), size) &&
      std::memcmp(expected.bytes.data(), actual, size) == 0)
    return std::nullopt;  // the usual case, without a per-byte walk
  std::optional<Difference> first;
  for (uint64_t i = 0; i < expected.bytes.size(); ++i) {
    if (!expected.known[i] || expected.bytes[i] == actual[i]) continue;
    if (!first) first = Difference{i, expected.bytes[i], actual[i], 0};
    ++first->differing_bytes;
  }
  return first;
}

void BufferModel::Page::MakeExplicit() {
  if (bytes) return;
  bytes = std::make_unique<uint8_t[]>(kPageBytes);
  known = std::make_unique<uint8_t[]>(kPageBytes);
  std::memset(bytes.get(), fill, kPageBytes);
  std::memset(known.get(), uniform ? 1 : 0, kPageBytes);
  uniform = false;
}

BufferModel::Page& BufferModel::PageAt(uint64_t page) {
  auto& slot = pages_[page];
  if (!slot) slot = std::make_unique<Page>();
  return *slot;
}

// Every operation walks the range one page at a time: one lookup per 4 KiB, not per byte.
template <typename PerPage>
void ForEachPage(uint64_t offset, uint64_t size, uint64_t page_bytes, PerPage&& per_page) {
  uint64_t done = 0;
  while (done < size) {
    const uint64_t at = offset + done;
    const uint64_t in_page = at % page_bytes;
    const uint64_t chunk = std::min(size - done, page_bytes - in_page);
    per_page(at / page_bytes, in_page, done, chunk);
    done += chunk;
  }
}

void BufferModel::Write(uint64_t offset, const uint8_t* bytes, uint64_t size) {
  ForEachPage(offset, size, kPageBytes,
              [&](uint64_t page_index, uint64_t in_page, uint64_t done, uint64_t chunk) {
                Page& page = PageAt(page_index);
                page.MakeExplicit();
                std::memcpy(page.bytes.get() + in_page, bytes + done, chunk);
                std::memset(page.known.get() + in_page, 1, chunk);
              });
}

void BufferModel::Fill(uint64_t offset, uint64_t size, const std::vector<uint8_t>& unit) {
  ForEachPage(offset, size, kPageBytes,
              [&](uint64_t page_index, uint64_t in_page, uint64_t done, uint64_t chunk) {
                Page& page = PageAt(page_index);
                if (unit.size() == 1 && chunk == kPageBytes) {
                  page.bytes.reset();
                  page.known.reset();
                  page.uniform = true;
                  page.fill = unit[0];
                  return;
                }
                page.MakeExplicit();
                if (unit.size() == 1) {
                  std::memset(page.bytes.get() + in_page, unit[0], chunk);
                } else {
                  for (uint64_t i = 0; i < chunk; ++i)
                    page.bytes[in_page + i] = unit[(done + i) % unit.size()];
                }
                std::memset(page.known.get() + in_page, 1, chunk);
              });
}

void BufferModel::Write(uint64_t offset, const ExpectedBytes& bytes) {
  ForEachPage(offset, bytes.bytes.size(), kPageBytes,
              [&](uint64_t page_index, uint64_t in_page, uint64_t done, uint64_t chunk) {
                const uint8_t* source = bytes.bytes.data() + done;
                const uint8_t* known = bytes.known.data() + done;
                const bool all_known = AllKnown(known, chunk);
                // Unknown onto unknown: nothing to record.
                if (!pages_.contains(page_index) && !all_known && !AnyKnown(known, chunk)) return;
                Page& page = PageAt(page_index);
                if (all_known && chunk == kPageBytes && AllEqual(source, chunk)) {
                  page.bytes.reset();
                  page.known.reset();
                  page.uniform = true;
                  page.fill = source[0];
                  return;
                }
                page.MakeExplicit();
                // Copying unknown bytes makes the destination unknown.
                std::memcpy(page.bytes.get() + in_page, source, chunk);
                std::memcpy(page.known.get() + in_page, known, chunk);
              });
}

ExpectedBytes BufferModel::Read(uint64_t offset, uint64_t size) const {
  ExpectedBytes out{std::vector<uint8_t>(size), std::vector<uint8_t>(size)};
  ForEachPage(offset, size, kPageBytes,
              [&](uint64_t page_index, uint64_t in_page, uint64_t done, uint64_t chunk) {
                auto it = pages_.find(page_index);
                if (it == pages_.end()) return;
                const Page& page = *it->second;
                if (page.uniform) {
                  std::memset(out.bytes.data() + done, page.fill, chunk);
                  std::memset(out.known.data() + done, 1, chunk);
                  return;
                }
                if (!page.bytes) return;
                std::memcpy(out.bytes.data() + done, page.bytes.get() + in_page, chunk);
                std::memcpy(out.known.data() + done, page.known.get() + in_page, chunk);
              });
  return out;
}

}  // namespace conformance::scenario
