"""Sentence spans, CJK detection and the entity merge key."""
from core.textutil import is_cjk, normalize_title, split_sentences, trim_around


def sentences(text):
    return [text[a:b] for a, b in split_sentences(text)]


def test_english_sentences_keep_titles_and_abbreviations_together():
    text = ("Mr. Fezziwig laughed. Mrs. Cratchit met Dr. Jones at St. Paul's Churchyard. "
            "J. Smith came too! Did he? Yes.")
    assert sentences(text) == ["Mr. Fezziwig laughed.", "Mrs. Cratchit met Dr. Jones at St. Paul's Churchyard.",
                               "J. Smith came too!", "Did he?", "Yes."]


def test_dotted_initials_do_not_end_a_sentence():
    """"J.B. Hunt" in a list of customers (Microsoft's FY17 Q3 call) is one name, not two sentences."""
    text = "Customers include Accenture, J. Walter Thompson, J.B. Hunt and Expedia. Next, gaming."
    assert [text[a:b] for a, b in split_sentences(text)] == [
        "Customers include Accenture, J. Walter Thompson, J.B. Hunt and Expedia.", "Next, gaming."]


def test_dialogue_does_not_split_before_a_lower_case_speech_verb():
    text = "'Bah!' said Scrooge, 'Humbug!' He went home."
    assert sentences(text) == ["'Bah!' said Scrooge, 'Humbug!'", "He went home."]


def test_hard_wrapped_lines_join_but_paragraphs_lists_and_headings_split():
    text = ("Ghost of Christmas Present, a spirit of a kind, generous,\n"
            "and hearty nature, came in\n\n"
            "STAVE ONE\n\n"
            "# Heading\n- first item\n- second item")
    assert sentences(text) == [
        "Ghost of Christmas Present, a spirit of a kind, generous,\nand hearty nature, came in",
        "STAVE ONE", "# Heading", "- first item", "- second item"]


def test_chinese_sentences_split_on_full_width_marks_with_exact_spans():
    text = "引言。GraphRAG 由微软研究院提出！它好吗？是的；当然\n下一行"
    spans = split_sentences(text)
    assert [text[a:b] for a, b in spans] == ["引言。", "GraphRAG 由微软研究院提出！", "它好吗？", "是的；", "当然", "下一行"]
    # spans index characters of the original (multi-byte) string exactly
    assert spans[1] == (3, text.index("！") + 1)


def test_spans_are_stripped_and_in_order():
    text = "  First one.   Second one.\n\n\n  Third one.  "
    spans = split_sentences(text)
    assert [text[a:b] for a, b in spans] == ["First one.", "Second one.", "Third one."]
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))


def test_is_cjk_counts_chinese_with_english_names_as_chinese():
    assert is_cjk("微软研究院提出的 GraphRAG 用 Leiden 算法做社区检测。")
    assert not is_cjk("GraphRAG uses the Leiden algorithm.")
    assert not is_cjk("")


def test_normalize_title_merges_spellings_of_one_name():
    assert normalize_title("Scrooge's") == normalize_title("SCROOGE") == "SCROOGE"
    assert normalize_title("  the  Bank of\nEngland.") == "THE BANK OF ENGLAND"
    assert normalize_title("Mr. Fezziwig") == "MR. FEZZIWIG"
    assert normalize_title('"Acme Inc."') == "ACME INC."
    assert normalize_title("《微软 研究院》") == "微软研究院"
    assert normalize_title("GraphRAG") == "GRAPHRAG"
    assert normalize_title("Cratchits'") == "CRATCHITS"


def test_trim_around_keeps_the_name_and_marks_cuts():
    words = " ".join(f"w{i}" for i in range(100))
    text = words + " Scrooge " + words
    at = text.index("Scrooge")
    out = trim_around(text, at, at + 7, 20)
    assert "Scrooge" in out and out.startswith("\u2026") and out.endswith("\u2026")
    assert len(out.split()) <= 21
    assert trim_around("Short one.", 0, 5, 20) == "Short one."
