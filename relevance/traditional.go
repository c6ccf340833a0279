package relevance

import "github.com/freshctx/freshctx/internal/textutil"

// Traditional Chinese characters are folded to their Simplified forms before
// a text is analysed (normalise), as upper case is folded to lower: "什麼時候
// 到貨？" asks what "什么时候到货？" does, its cues are the ones the analysis
// knows (什么时候 asks for a time), and it finds "订单 已 发货" and "訂單 已 發貨"
// alike. The table (internal/textutil/traditional.txt, shared with the
// knowledge full text of store/pgstore) is derived from CC-CEDICT's
// single-character entries (TestTraditionalTableIsCEDICTs); a character that
// is Simplified too (乾, 著) is never folded, so a Simplified text is
// analysed as it was. Only the analysis sees the fold: an event's text is
// stored and returned as it came.

// InSimplified is a question written in Traditional Chinese in Simplified
// characters ("" when it has no Traditional character): what a full-text
// search over Simplified articles can also look for.
func InSimplified(question string) string {
	if s := textutil.Simplified(question); s != question {
		return s
	}
	return ""
}
