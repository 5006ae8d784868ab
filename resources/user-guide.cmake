# Renders docs/user-guide.md into the page Help › User guide shows (cmake -P; CMARK, IN, OUT).
# cmark-gfm reads GitHub's tables; --unsafe keeps the guide's <a name> anchors. The screenshots
# are shipped beside the page (screenshots/, app/renewal-desk/CMakeLists.txt): each <img> keeps
# its src, drawn 760 pixels wide (the pictures are 1600 wide, the guide's window about 900),
# its caption below it in italics.
execute_process(COMMAND ${CMARK} --unsafe --smart -e table -e autolink ${IN}
    OUTPUT_VARIABLE body RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmark-gfm failed on ${IN}: ${err}")
endif()
string(REGEX REPLACE "<img src=\"([^\"]*)\" alt=\"([^\"]*)\" />"
    "<img src=\"\\1\" alt=\"\\2\" width=\"760\" /><br /><i>\\2</i>" body "${body}")
file(WRITE ${OUT} "<!DOCTYPE html>
<html lang=\"en\"><head><meta charset=\"utf-8\">
<title>Renewal Desk — User guide</title>
<style>
body { font-family: sans-serif; margin: 12px 20px; }
h1 { font-size: x-large; } h2 { font-size: large; margin-top: 24px; } h3 { font-size: medium; }
code { font-family: monospace; } pre { background: #f4f4f4; padding: 6px; white-space: pre-wrap; }
table { border-collapse: collapse; } th, td { border: 1px solid #bbb; padding: 3px 6px; }
th { background: #eee; }
</style></head>
<body>
${body}</body></html>
")
