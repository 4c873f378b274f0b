#include "analysis/report/xml_document.h"

#include <algorithm>

namespace waitscope::report {
namespace {

constexpr std::uint32_t kNone = 0xffffffffU;

bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == ':' || static_cast<unsigned char>(c) >= 0x80;
}
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void appendUtf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | cp >> 6);
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | cp >> 12);
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | cp >> 18);
    out += static_cast<char>(0x80 | (cp >> 12 & 0x3f));
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  XmlDocument parse() {
    XmlDocument doc;
    std::uint32_t current = kNone;
    bool rootClosed = false;
    while (pos_ < s_.size()) {
      if (s_[pos_] != '<') {
        const std::size_t end = std::min(s_.find('<', pos_), s_.size());
        const std::string text = decode(s_.substr(pos_, end - pos_));
        if (current != kNone) {
          doc.elements[current].text += text;
        } else if (!std::all_of(text.begin(), text.end(), isSpace)) {
          fail("text outside the root element");
        }
        pos_ = end;
        continue;
      }
      if (starts("<?")) {
        skipPast("?>");
      } else if (starts("<!--")) {
        skipPast("-->");
      } else if (starts("<![CDATA[")) {
        const std::size_t begin = pos_ + 9;
        skipPast("]]>");
        if (current == kNone) fail("CDATA outside the root element");
        doc.elements[current].text += s_.substr(begin, pos_ - 3 - begin);
      } else if (starts("<!")) {
        skipPast(">");  // DOCTYPE without an internal subset
      } else if (starts("</")) {
        pos_ += 2;
        const std::string name = readName();
        skipSpace();
        expect('>');
        if (current == kNone || doc.elements[current].name != name) fail("unexpected </" + name + ">");
        current = doc.elements[current].parent;
        if (current == kNone) rootClosed = true;
      } else {
        ++pos_;
        if (rootClosed || (current == kNone && !doc.elements.empty())) fail("a second root element");
        XmlElement e;
        e.name = readName();
        e.parent = current;
        bool selfClosing = false;
        while (true) {
          skipSpace();
          if (pos_ >= s_.size()) fail("unterminated tag <" + e.name + ">");
          if (s_[pos_] == '>') {
            ++pos_;
            break;
          }
          if (starts("/>")) {
            pos_ += 2;
            selfClosing = true;
            break;
          }
          std::string key = readName();
          skipSpace();
          expect('=');
          skipSpace();
          if (pos_ >= s_.size() || (s_[pos_] != '"' && s_[pos_] != '\'')) fail("attribute value without quotes");
          const char quote = s_[pos_++];
          const std::size_t end = s_.find(quote, pos_);
          if (end == std::string_view::npos) fail("unterminated attribute value");
          e.attributes.emplace_back(std::move(key), decode(s_.substr(pos_, end - pos_)));
          pos_ = end + 1;
        }
        if (doc.elements.size() >= kNone - 1) fail("too many elements");
        const auto index = static_cast<std::uint32_t>(doc.elements.size());
        if (current != kNone) doc.elements[current].children.push_back(index);
        doc.elements.push_back(std::move(e));
        if (!selfClosing) {
          current = index;
        } else if (current == kNone) {
          rootClosed = true;
        }
      }
    }
    if (doc.elements.empty()) fail("no root element");
    if (current != kNone) fail("<" + doc.elements[current].name + "> is not closed (truncated file?)");
    return doc;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(s_.begin(), s_.begin() + std::min(pos_, s_.size()), '\n'));
    throw XmlError("line " + std::to_string(line) + ": " + what);
  }
  bool starts(std::string_view prefix) const { return s_.substr(pos_, prefix.size()) == prefix; }
  void skipPast(std::string_view end) {
    const std::size_t at = s_.find(end, pos_);
    if (at == std::string_view::npos) fail("unterminated markup");
    pos_ = at + end.size();
  }
  void skipSpace() {
    while (pos_ < s_.size() && isSpace(s_[pos_])) ++pos_;
  }
  void expect(char c) {
    if (pos_ >= s_.size() || s_[pos_] != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string readName() {
    const std::size_t begin = pos_;
    while (pos_ < s_.size() && isNameChar(s_[pos_])) ++pos_;
    if (pos_ == begin) fail("expected a name");
    return std::string(s_.substr(begin, pos_ - begin));
  }
  std::string decode(std::string_view raw) const {
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '&') {
        out += raw[i];
        continue;
      }
      const std::size_t end = raw.find(';', i);
      if (end == std::string_view::npos || end - i > 12) fail("bad entity reference");
      const std::string_view entity = raw.substr(i + 1, end - i - 1);
      if (entity == "lt") out += '<';
      else if (entity == "gt") out += '>';
      else if (entity == "amp") out += '&';
      else if (entity == "quot") out += '"';
      else if (entity == "apos") out += '\'';
      else if (entity.size() > 1 && entity[0] == '#') {
        const bool hex = entity[1] == 'x';
        std::uint32_t cp = 0;
        const std::string_view digits = entity.substr(hex ? 2 : 1);
        if (digits.empty()) fail("bad character reference");
        for (const char c : digits) {
          int d = -1;
          if (c >= '0' && c <= '9') d = c - '0';
          else if (hex && c >= 'a' && c <= 'f') d = c - 'a' + 10;
          else if (hex && c >= 'A' && c <= 'F') d = c - 'A' + 10;
          if (d < 0) fail("bad character reference");
          cp = cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(d);
          if (cp > 0x10ffff) fail("bad character reference");
        }
        appendUtf8(out, cp);
      } else {
        fail("unknown entity &" + std::string(entity) + ";");
      }
      i = end;
    }
    return out;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

const std::string* XmlDocument::attribute(std::uint32_t element, std::string_view name) const {
  for (const auto& [key, value] : elements[element].attributes)
    if (key == name) return &value;
  return nullptr;
}

std::uint32_t XmlDocument::child(std::uint32_t element, std::string_view name) const {
  for (const std::uint32_t c : elements[element].children)
    if (elements[c].name == name) return c;
  return kNone;
}

std::string XmlDocument::childText(std::uint32_t element, std::string_view name) const {
  const std::uint32_t c = child(element, name);
  return c == kNone ? std::string() : elements[c].text;
}

XmlDocument parseXml(std::string_view text) { return Parser(text).parse(); }

std::string xmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        // XML 1.0 cannot hold most control characters, even escaped.
        out += (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') ? '?' : c;
    }
  }
  return out;
}

}  // namespace waitscope::report
