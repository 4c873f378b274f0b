#pragma once
// A small XML reader for Cube's anchor.xml: elements, attributes and text with
// the predefined and numeric entities, comments, CDATA, processing
// instructions and a DOCTYPE skipped. Iterative (no recursion), so a deeply
// nested or hostile file cannot exhaust the stack. No namespaces, no DTDs.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace waitscope::report {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::string text;                     // character data directly inside, concatenated
  std::uint32_t parent = 0xffffffffU;   // index into XmlDocument::elements; none for the root
  std::vector<std::uint32_t> children;  // in document order
};

// Malformed XML; what() says where ("line 12: ...").
class XmlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct XmlDocument {
  std::vector<XmlElement> elements;  // elements[0] is the root; parents before children

  // The attribute's value, or nullptr.
  const std::string* attribute(std::uint32_t element, std::string_view name) const;
  // The first child element with this name, or 0xffffffff.
  std::uint32_t child(std::uint32_t element, std::string_view name) const;
  // The text of the first child element with this name, or "".
  std::string childText(std::uint32_t element, std::string_view name) const;
};

XmlDocument parseXml(std::string_view text);

// `text` with & < > " escaped, for double-quoted attribute values and
// character data (an apostrophe needs no escape there).
std::string xmlEscape(std::string_view text);

}  // namespace waitscope::report
