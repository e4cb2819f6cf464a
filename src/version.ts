/** The version of weft that this program is; shown by `status` and `--version`. */
export const VERSION = "0.1.0";
