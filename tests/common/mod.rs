//! What several test files share.

use kvbudget::core::handoff::{from_wire, to_wire, Answer, Envelope, Reply, Request, Session};

/// Asks the worker's session `w` as the page does: the request goes in an envelope through the
/// wire format and back, the answer in a reply the same way; each must read back to what was sent.
pub fn ask_of(w: &mut Session, request: Request) -> Answer {
    let envelope = Envelope {
        n: 7,
        lang: "en".into(),
        request,
    };
    let sent: Envelope = from_wire(&to_wire(&envelope).unwrap()).unwrap();
    assert_eq!(sent, envelope);
    let reply = Reply {
        n: sent.n,
        answer: w.answer(sent.request),
    };
    let came: Reply = from_wire(&to_wire(&reply).unwrap()).unwrap();
    assert_eq!(came, reply);
    came.answer
}
