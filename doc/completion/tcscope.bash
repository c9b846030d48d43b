# bash completion for tcscope. The commands and each command's options come
# from the binary being completed (tcscope help --commands, tcscope help
# --options CMD: the tables its parser reads), so they cannot go stale.
# Install: source it, or copy it to /usr/share/bash-completion/completions/tcscope
# (make install puts it in PREFIX/share/bash-completion/completions).
_tcscope() {
    local cur=${COMP_WORDS[COMP_CWORD]} bin=${COMP_WORDS[0]/#\~/$HOME} words
    command -v "$bin" >/dev/null 2>&1 || bin=tcscope
    if [ "$COMP_CWORD" -eq 1 ]; then
        words="$("$bin" help --commands 2>/dev/null) help --help --version"
    elif [ "${COMP_WORDS[1]}" = help ]; then
        words=$("$bin" help --commands 2>/dev/null)
    elif [[ $cur == -* ]]; then
        words=$("$bin" help --options "${COMP_WORDS[1]}" 2>/dev/null)
    else
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0
    fi
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _tcscope tcscope
