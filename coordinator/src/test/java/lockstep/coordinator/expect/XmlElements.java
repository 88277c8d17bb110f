package lockstep.coordinator.expect;

import java.util.ArrayList;
import java.util.List;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The elements of a parsed XML file (a JUnit report), as lists a test can assert on. */
public final class XmlElements {
  private XmlElements() {}

  /** Every element named {@code name} in the document, in document order. */
  public static List<Element> elements(Document doc, String name) {
    return list(doc.getElementsByTagName(name));
  }

  /** Every element named {@code name} below {@code parent}, in document order. */
  public static List<Element> elements(Element parent, String name) {
    return list(parent.getElementsByTagName(name));
  }

  private static List<Element> list(NodeList nodes) {
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      out.add((Element) nodes.item(i));
    }
    return out;
  }
}
