//! `page::patch` on a model of the DOM: after a patch from `old` to `new`, the model built from
//! `old` must read back as `new`, with only the changes each case names. The model is built by a
//! parser of its own (below), not by the one under test.

use kvbudget::html_escape;
use kvbudget::page::patch::{patch, Dom, Mirror};
use proptest::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

type Node = Rc<RefCell<M>>;

#[derive(Debug)]
enum M {
    Text(String),
    El {
        tag: String,
        attrs: Vec<(String, String)>,
        closed: bool,
        kids: Vec<Node>,
    },
}

const VOID: [&str; 3] = ["br", "input", "img"];

fn unesc(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The model's own reader: children up to `</close>` or the end.
fn parse(s: &str, at: &mut usize, close: &str) -> Vec<Node> {
    let mut out = Vec::new();
    while *at < s.len() {
        let rest = &s[*at..];
        if rest.starts_with("</") {
            let end = rest.find('>').unwrap();
            assert_eq!(&rest[2..end], close, "model: end tag");
            *at += end + 1;
            return out;
        }
        if !rest.starts_with('<') {
            let end = rest.find('<').unwrap_or(rest.len());
            out.push(Rc::new(RefCell::new(M::Text(unesc(&rest[..end])))));
            *at += end;
            continue;
        }
        let end = rest.find('>').unwrap();
        let mut head = &rest[1..end];
        let closed = head.ends_with('/');
        if closed {
            head = &head[..head.len() - 1];
        }
        let mut words = head.splitn(2, ' ');
        let tag = words.next().unwrap().to_string();
        let mut attrs = Vec::new();
        let mut a = words.next().unwrap_or("").trim();
        while !a.is_empty() {
            let (name, after) = match a.find(['=', ' ']) {
                Some(i) => (&a[..i], &a[i..]),
                None => (a, ""),
            };
            if let Some(v) = after.strip_prefix("=\"") {
                let q = v.find('"').unwrap();
                attrs.push((name.to_string(), unesc(&v[..q])));
                a = v[q + 1..].trim();
            } else {
                attrs.push((name.to_string(), String::new()));
                a = after.trim();
            }
        }
        *at += end + 1;
        let kids = if closed || VOID.contains(&tag.as_str()) {
            Vec::new()
        } else {
            parse(s, at, &tag)
        };
        out.push(Rc::new(RefCell::new(M::El {
            tag,
            attrs,
            closed,
            kids,
        })));
    }
    assert!(close.is_empty(), "model: no end tag for {close}");
    out
}

fn read(s: &str) -> Vec<Node> {
    parse(s, &mut 0, "")
}

fn write(n: &Node, out: &mut String) {
    match &*n.borrow() {
        M::Text(t) => out.push_str(&html_escape(t)),
        M::El {
            tag,
            attrs,
            closed,
            kids,
        } => {
            out.push('<');
            out.push_str(tag);
            for (k, v) in attrs {
                out.push(' ');
                out.push_str(k);
                if !v.is_empty() {
                    out.push_str(&format!("=\"{}\"", html_escape(v)));
                }
            }
            if *closed {
                out.push_str("/>");
                return;
            }
            out.push('>');
            for k in kids {
                write(k, out);
            }
            if !VOID.contains(&tag.as_str()) {
                out.push_str(&format!("</{tag}>"));
            }
        }
    }
}

/// The model, and what the patch did to it.
struct Model {
    log: RefCell<Vec<String>>,
    /// How many times an element's children were read.
    reads_of_kids: std::cell::Cell<usize>,
    /// Whether markup written whole is read into the model (not when it is markup the model's
    /// reader does not read either).
    reads: bool,
}

fn kids_of(n: &Node) -> std::cell::RefMut<'_, Vec<Node>> {
    std::cell::RefMut::map(n.borrow_mut(), |m| match m {
        M::El { kids, .. } => kids,
        M::Text(_) => panic!("a text node has no children"),
    })
}

impl Dom for Model {
    type Node = Node;
    fn kids(&self, n: &Node) -> Vec<Node> {
        self.reads_of_kids.set(self.reads_of_kids.get() + 1);
        kids_of(n).clone()
    }
    fn holds(&self, parent: &Node, n: &Node) -> bool {
        kids_of(parent).iter().any(|k| Rc::ptr_eq(k, n))
    }
    fn is(&self, n: &Node, tag: &str) -> bool {
        match &*n.borrow() {
            M::Text(_) => tag.is_empty(),
            M::El { tag: t, .. } => t.eq_ignore_ascii_case(tag),
        }
    }
    fn set_attr(&self, n: &Node, name: &str, value: &str) {
        self.log.borrow_mut().push(format!("attr {name}={value}"));
        if let M::El { attrs, .. } = &mut *n.borrow_mut() {
            match attrs.iter_mut().find(|(k, _)| k == name) {
                Some(a) => a.1 = value.to_string(),
                None => attrs.push((name.to_string(), value.to_string())),
            }
        }
    }
    fn unset_attr(&self, n: &Node, name: &str) {
        self.log.borrow_mut().push(format!("unset {name}"));
        if let M::El { attrs, .. } = &mut *n.borrow_mut() {
            attrs.retain(|(k, _)| k != name);
        }
    }
    fn set_text(&self, n: &Node, text: &str) {
        self.log.borrow_mut().push(format!("text {text}"));
        *n.borrow_mut() = M::Text(text.to_string());
    }
    fn set_inner(&self, n: &Node, html: &str) {
        self.log.borrow_mut().push(format!("inner {html}"));
        if self.reads {
            *kids_of(n) = read(html);
        }
    }
    fn remove(&self, parent: &Node, n: &Node) {
        let mut out = String::new();
        write(n, &mut out);
        self.log.borrow_mut().push(format!("remove {out}"));
        kids_of(parent).retain(|k| !Rc::ptr_eq(k, n));
    }
    fn insert_before(&self, next: &Node, html: &str) -> bool {
        self.log.borrow_mut().push(format!("before {html}"));
        if matches!(&*next.borrow(), M::Text(_)) {
            return false;
        }
        let parent = PARENT.with(|p| p.borrow().clone()).expect("a parent");
        let parent = find_parent(&parent, next).expect("next is in the tree");
        let mut kids = kids_of(&parent);
        let i = kids.iter().position(|k| Rc::ptr_eq(k, next)).unwrap();
        kids.splice(i..i, read(html));
        true
    }
    fn append(&self, n: &Node, html: &str) {
        self.log.borrow_mut().push(format!("append {html}"));
        kids_of(n).extend(read(html));
    }
}

thread_local! {
    /// The root of the model being patched (to find a node's parent).
    static PARENT: RefCell<Option<Node>> = const { RefCell::new(None) };
}

fn find_parent(root: &Node, child: &Node) -> Option<Node> {
    let kids = match &*root.borrow() {
        M::El { kids, .. } => kids.clone(),
        M::Text(_) => return None,
    };
    if kids.iter().any(|k| Rc::ptr_eq(k, child)) {
        return Some(root.clone());
    }
    kids.iter().find_map(|k| find_parent(k, child))
}

/// A box holding `dom` (its markup), as the root of the tree the model finds parents in, and the
/// model (which reads markup written whole into the tree when `reads`).
fn boxed(dom: &str, reads: bool) -> (Node, Model) {
    let root = Rc::new(RefCell::new(M::El {
        tag: "div".into(),
        attrs: Vec::new(),
        closed: false,
        kids: read(dom),
    }));
    PARENT.with(|p| *p.borrow_mut() = Some(root.clone()));
    let model = Model {
        log: RefCell::new(Vec::new()),
        reads_of_kids: Default::default(),
        reads,
    };
    (root, model)
}

/// The markup inside a box.
fn inner(root: &Node) -> String {
    let mut out = String::new();
    for k in kids_of(root).iter() {
        write(k, &mut out);
    }
    out
}

/// Patches a box holding `dom` (its markup) from `old` to `new`; returns the box's markup after
/// and the changes made.
fn run(dom: &str, old: &str, new: &str) -> (String, Vec<String>) {
    run_with(dom, old, new, true)
}

fn run_with(dom: &str, old: &str, new: &str, reads: bool) -> (String, Vec<String>) {
    let (root, model) = boxed(dom, reads);
    patch(&model, &root, &mut Mirror::default(), old, new);
    (inner(&root), model.log.into_inner())
}

/// Patches a box holding `steps[0]` into each of the following markups in turn, keeping what one
/// patch read of the nodes for the next (as the page does); returns the box's markup after each
/// step and how many times each step read an element's children.
fn run_steps(steps: &[&str]) -> Vec<(String, usize)> {
    let (root, model) = boxed(steps[0], true);
    let mut mirror = Mirror::default();
    let mut out = Vec::new();
    for w in steps.windows(2) {
        model.reads_of_kids.set(0);
        patch(&model, &root, &mut mirror, w[0], w[1]);
        out.push((inner(&root), model.reads_of_kids.get()));
    }
    out
}

fn check(old: &str, new: &str, expected: &[&str]) {
    let (after, log) = run(old, old, new);
    assert_eq!(after, new);
    assert_eq!(log, expected);
}

const SVG: &str = r#"<figure data-value="16"><svg width="860"><path d="M1 2L3 4"/><text x="5" y="6">1k</text><text x="7" y="6">2k</text><rect x="1" y="2" width="3"/></svg><p>16 sequences</p></figure>"#;

#[test]
fn one_attribute_changed_is_one_attribute_set() {
    // The chart's one moved label: only its `x` is written.
    let new = SVG.replace(r#"x="7""#, r#"x="9""#);
    check(SVG, &new, &["attr x=9"]);
}

#[test]
fn texts_and_attributes_are_written_unescaped() {
    // `&lt;` and `&quot;` in the markup are `<` and `"` in the DOM.
    let new = SVG
        .replace("16 sequences", "a &lt; b")
        .replace(r#"data-value="16""#, r#"data-value="&quot;8&quot;""#);
    check(SVG, &new, &["attr data-value=\"8\"", "text a < b"]);
}

#[test]
fn an_element_added_in_the_middle_is_inserted_there() {
    // A third tick label between the second and the bar: one insertion, nothing else touched.
    let new = SVG.replace(r#"2k</text>"#, r#"2k</text><text x="8" y="6">5k</text>"#);
    check(SVG, &new, &[r#"before <text x="8" y="6">5k</text>"#]);
}

#[test]
fn an_element_gone_is_removed() {
    let new = SVG.replace(r#"<text x="7" y="6">2k</text>"#, "");
    check(SVG, &new, &[r#"remove <text x="7" y="6">2k</text>"#]);
}

#[test]
fn an_element_of_another_tag_replaces_the_old_one() {
    let new = SVG.replace(r#"<text x="7" y="6">2k</text>"#, r#"<circle r="5"/>"#);
    check(
        SVG,
        &new,
        &[
            r#"remove <text x="7" y="6">2k</text>"#,
            r#"before <circle r="5"/>"#,
        ],
    );
}

#[test]
fn new_elements_at_the_end_are_appended() {
    let new = SVG.replace(
        r#"<rect x="1" y="2" width="3"/>"#,
        r#"<rect x="1" y="2" width="3"/><circle r="5"/>"#,
    );
    check(SVG, &new, &[r#"append <circle r="5"/>"#]);
}

#[test]
fn a_removed_attribute_is_unset() {
    let new = SVG.replace(r#" width="3""#, "");
    check(SVG, &new, &["unset width"]);
}

#[test]
fn an_attribute_added_has_the_parent_written_whole() {
    // Set on the element, `class` would come after `y` in the DOM, not before it as written.
    let new = SVG.replace(r#"<text x="7" y="6">"#, r#"<text class="c" x="7" y="6">"#);
    let (after, log) = run(SVG, SVG, &new);
    assert_eq!(after, new);
    assert_eq!(log.len(), 1);
    assert!(log[0].starts_with("inner <path"), "{log:?}");
}

#[test]
fn nothing_in_common_is_written_whole() {
    check(SVG, "<p>refused</p>", &["inner <p>refused</p>"]);
}

#[test]
fn markup_it_does_not_read_is_written_whole() {
    // A comment, an unquoted attribute, a script, and raw text the browser reads by its own rules:
    // an `<iframe>`'s text is not markup, and a `<plaintext>` takes all that follows it as text.
    for new in [
        "<figure><!-- x --></figure>",
        "<figure data-value=16></figure>",
        "<figure><script>1</script></figure>",
        "<figure><iframe>a<b></iframe></figure>",
        "<figure><plaintext></plaintext></figure>",
    ] {
        let (_, log) = run_with(SVG, SVG, new, false);
        assert_eq!(log, vec![format!("inner {new}")], "{new}");
    }
}

#[test]
fn an_empty_frame_is_changed_in_place_and_not_loaded_again() {
    // The embed builder's preview drawn in another language: only its title differs, so only the
    // title is set (written whole, the frame would load its page a second time). A new address
    // is a new frame, one load: a `src` set on a loaded frame would add an entry to the page's
    // history, and Back would turn the preview back instead of the page.
    let frame =
        r#"<iframe class="embed-preview" title="Preview" src="./?embed=1&amp;lang=en"></iframe>"#;
    let titled = frame.replace("Preview", "预览");
    check(frame, &titled, &["attr title=预览"]);
    let moved = frame.replace("lang=en", "lang=zh-CN");
    check(frame, &moved, &[&format!("inner {moved}")]);
}

#[test]
fn a_text_with_an_entity_it_does_not_know_is_written_as_markup() {
    // `&nbsp;` is left to the browser to read: the paragraph's content is written as markup.
    let new = SVG.replace("16 sequences", "a&nbsp;b");
    let (_, log) = run_with(SVG, SVG, &new, false);
    assert_eq!(log, vec!["inner a&nbsp;b".to_string()]);
}

#[test]
fn a_dom_other_than_the_old_markup_is_written_whole_where_it_differs() {
    // The box holds one label fewer than `old` says: the `<svg>`'s children cannot be paired, so
    // the `<svg>` is written whole; the figure's attribute is still changed in place.
    let dom = SVG.replace(r#"<text x="7" y="6">2k</text>"#, "");
    let new = SVG
        .replace(r#"data-value="16""#, r#"data-value="8""#)
        .replace(r#"x="7""#, r#"x="9""#);
    let (after, log) = run(&dom, SVG, &new);
    assert_eq!(after, new);
    assert_eq!(log[0], "attr data-value=8");
    assert!(log[1].starts_with("inner <path"), "{log:?}");
    assert_eq!(log.len(), 2);
}

#[test]
fn the_nodes_one_edit_read_are_not_read_again_by_the_next() {
    // A label moved and moved back: the first patch reads the children of the box, the
    // `<figure>` and the `<svg>` (3 reads); the second finds them kept and reads nothing.
    let moved = SVG.replace(r#"x="7""#, r#"x="9""#);
    let steps = run_steps(&[SVG, &moved, SVG]);
    assert_eq!(steps[0], (moved.clone(), 3));
    assert_eq!(steps[1], (SVG.to_string(), 0));
}

#[test]
fn after_children_are_added_or_removed_their_parent_is_read_again() {
    // A point added to the `<svg>`: the first patch reads 3 lists of children (the box's, the
    // `<figure>`'s, the `<svg>`'s); having added one, it forgets the `<svg>`'s. The next edit, a
    // label moved, reads them again (1, with the label's text unread: its attribute changed); the
    // one after, the point removed, nothing; the last, the label moved back, the `<svg>`'s again.
    let dot = SVG.replace("</svg>", r#"<circle r="5"/></svg>"#);
    let dot_moved = dot.replace(r#"x="7""#, r#"x="9""#);
    let moved = SVG.replace(r#"x="7""#, r#"x="9""#);
    let steps = run_steps(&[SVG, &dot, &dot_moved, &moved, SVG]);
    let reads: Vec<usize> = steps.iter().map(|s| s.1).collect();
    assert_eq!(reads, [3, 1, 0, 1]);
    assert_eq!(steps[3].0, SVG);
}

#[test]
fn an_element_written_whole_has_its_new_children_read() {
    // The paragraph's text becomes a `<b>` (nothing pairs up: the paragraph is written whole),
    // then its text changes twice: each change must land in the nodes the whole write made, not
    // in those it replaced (which the first edit had read and checked).
    let steps = [
        "<p><b>x</b></p>",
        "<p><b>y</b></p>",
        "<p>z</p>",
        "<p>q</p>",
        "<p><b>w</b></p>",
        "<p><b>v</b></p>",
    ];
    let after: Vec<String> = run_steps(&steps).into_iter().map(|s| s.0).collect();
    assert_eq!(after, &steps[1..]);
}

#[test]
fn a_kept_node_replaced_by_something_else_has_its_parent_written_whole() {
    // A translation in the browser swaps the paragraph's text node for its own (the same count of
    // children): the next edit must not write into the node it kept, now out of the page, but
    // write the paragraph whole.
    let (root, model) = boxed(SVG, true);
    let mut mirror = Mirror::default();
    let eight = SVG.replace("16 sequences", "8 sequences");
    patch(&model, &root, &mut mirror, SVG, &eight);
    let figure = kids_of(&root)[0].clone();
    let p = kids_of(&figure)[1].clone();
    kids_of(&p)[0] = Rc::new(RefCell::new(M::Text("8 séquences".into())));
    let four = SVG.replace("16 sequences", "4 sequences");
    patch(&model, &root, &mut mirror, &eight, &four);
    assert_eq!(inner(&root), four);
}

/// Pieces of markup side by side; adjacent texts would be one text node in the DOM, so of two
/// texts in a row the second is left out.
fn join(pieces: Vec<String>) -> String {
    let mut body = String::new();
    let mut last_text = false;
    for k in pieces {
        let text = !k.starts_with('<');
        if !(text && last_text) {
            body.push_str(&k);
        }
        last_text = text;
    }
    body
}

/// Markup of the kind the page writes: nested elements, texts, attributes, self-closed SVG leaves.
fn markup() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        "[a-c <&\"]{1,3}".prop_map(|t| html_escape(&t)),
        (0u8..3, 0u8..3).prop_map(|(x, w)| format!(r#"<rect x="{x}" width="{w}"/>"#)),
        Just("<br>".to_string()),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        (
            prop::sample::select(vec!["p", "g", "text"]),
            prop::option::of(0u8..3),
            prop::collection::vec(inner, 0..4),
        )
            .prop_map(|(tag, a, kids)| {
                let body = join(kids);
                match a {
                    Some(a) => format!(r#"<{tag} class="c{a}">{body}</{tag}>"#),
                    None => format!("<{tag}>{body}</{tag}>"),
                }
            })
    })
}

proptest! {
    /// Any markup patched into any other reads back as the new one.
    #[test]
    fn any_patch_reads_back_as_the_new_markup(
        old in prop::collection::vec(markup(), 1..4).prop_map(join),
        new in prop::collection::vec(markup(), 1..4).prop_map(join),
    ) {
        let (after, _) = run(&old, &old, &new);
        prop_assert_eq!(after, new);
    }

    /// Markups patched in turn, each patch starting from what the last one kept of the nodes,
    /// read back as each markup.
    #[test]
    fn patches_in_turn_read_back_as_each_markup(
        steps in prop::collection::vec(prop::collection::vec(markup(), 1..4).prop_map(join), 2..6),
    ) {
        let refs: Vec<&str> = steps.iter().map(String::as_str).collect();
        for (k, (after, _)) in run_steps(&refs).into_iter().enumerate() {
            prop_assert_eq!(&after, &steps[k + 1]);
        }
    }
}

#[test]
fn the_page_drawn_in_chinese_changes_the_english_one_in_place() {
    // A change of language draws the page's markup anew: only texts and attributes differ, so no
    // element is written anew but the switch's options (an open panel, the focus, text typed into
    // a field stay).
    use kvbudget::core::i18n::{self, Lang};
    i18n::load_builtin_zh();
    let en = kvbudget::page::page_html(Lang::En, None);
    i18n::set_lang(Lang::ZhCn);
    let zh = kvbudget::page::page_html(Lang::ZhCn, None);
    i18n::set_lang(Lang::En);
    let (after, log) = run(&en, &en, &zh);
    assert_eq!(after, zh);
    // The language switch's options are written anew (the chosen one's `selected` moves); nothing
    // else is.
    let written: Vec<_> = log
        .iter()
        .filter(|l| {
            !["text ", "attr ", "unset "]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    assert!(
        written[0].starts_with(r#"inner <option value="en""#),
        "{written:?}"
    );
    assert!(log.len() > 50, "{}", log.len());
}
