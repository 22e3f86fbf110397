#include "profiler/xspace_writer.h"

#include <algorithm>
#include <map>

#include "graph/wire.h"
#include "stream_executor/platform.h"

namespace reference_plugin::profiler {
namespace {

// Field numbers of xplane.proto.
constexpr uint32_t kSpacePlanes = 1;
constexpr uint32_t kPlaneId = 1, kPlaneName = 2, kPlaneLines = 3, kPlaneEventMetadata = 4;
constexpr uint32_t kLineId = 1, kLineName = 2, kLineTimestampNs = 3, kLineEvents = 4;
constexpr uint32_t kEventMetadataId = 1, kEventOffsetPs = 2, kEventDurationPs = 3;
constexpr uint32_t kMetadataId = 1, kMetadataName = 2;
constexpr uint32_t kMapKey = 1, kMapValue = 2;

// "refdev<ordinal>.s<n>" -> "/device:REFDEV:<ordinal>".
std::string plane_name(const std::string& stream) {
  const std::size_t dot = stream.find('.');
  std::string ordinal = stream.substr(0, dot);
  ordinal.erase(0, ordinal.find_first_of("0123456789"));
  return std::string("/device:") + kDeviceType + ":" + (ordinal.empty() ? "0" : ordinal);
}

struct Plane {
  std::map<std::string, std::vector<const TraceEvent*>> lines;  // by stream
  std::map<std::string, int64_t> metadata;                      // event name -> id
};

std::string serialize_line(int64_t id, const std::string& stream,
                           const std::vector<const TraceEvent*>& events, const Plane& plane) {
  const int64_t start = (*std::min_element(events.begin(), events.end(), [](auto* a, auto* b) {
                          return a->begin_ns < b->begin_ns;
                        }))->begin_ns;
  std::string line;
  wire::put_varint_field(&line, kLineId, static_cast<uint64_t>(id));
  wire::put_bytes_field(&line, kLineName, stream);
  wire::put_varint_field(&line, kLineTimestampNs, static_cast<uint64_t>(start));
  for (const TraceEvent* e : events) {
    std::string event;
    wire::put_varint_field(&event, kEventMetadataId,
                           static_cast<uint64_t>(plane.metadata.at(e->name)));
    wire::put_varint_field(&event, kEventOffsetPs,
                           static_cast<uint64_t>((e->begin_ns - start) * 1000));
    wire::put_varint_field(
        &event, kEventDurationPs,
        static_cast<uint64_t>(std::max<int64_t>(0, e->end_ns - e->begin_ns) * 1000));
    wire::put_bytes_field(&line, kLineEvents, event);
  }
  return line;
}

std::string serialize_plane(int64_t id, const std::string& name, const Plane& plane) {
  std::string out;
  wire::put_varint_field(&out, kPlaneId, static_cast<uint64_t>(id));
  wire::put_bytes_field(&out, kPlaneName, name);
  int64_t line_id = 0;
  for (const auto& [stream, events] : plane.lines) {
    wire::put_bytes_field(&out, kPlaneLines, serialize_line(++line_id, stream, events, plane));
  }
  for (const auto& [event_name, metadata_id] : plane.metadata) {
    std::string metadata, entry;
    wire::put_varint_field(&metadata, kMetadataId, static_cast<uint64_t>(metadata_id));
    wire::put_bytes_field(&metadata, kMetadataName, event_name);
    wire::put_varint_field(&entry, kMapKey, static_cast<uint64_t>(metadata_id));
    wire::put_bytes_field(&entry, kMapValue, metadata);
    wire::put_bytes_field(&out, kPlaneEventMetadata, entry);
  }
  return out;
}

}  // namespace

std::string serialize_xspace(const std::vector<TraceEvent>& events) {
  std::map<std::string, Plane> planes;
  for (const TraceEvent& event : events) {
    Plane& plane = planes[plane_name(event.stream)];
    plane.lines[event.stream].push_back(&event);
    plane.metadata.emplace(event.name, static_cast<int64_t>(plane.metadata.size()) + 1);
  }
  std::string space;
  int64_t plane_id = 0;
  for (const auto& [name, plane] : planes) {
    wire::put_bytes_field(&space, kSpacePlanes, serialize_plane(++plane_id, name, plane));
  }
  return space;
}

}  // namespace reference_plugin::profiler
