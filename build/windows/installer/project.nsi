; Yui's Windows installer: per user, no administrator prompt.
;
; Built by `make installer` with makensis (Debian's nsis package):
;   makensis -DVERSION=1.2.3+4.gabc -DWIN_VERSION=1.2.3.4 -DBINARY=yui.exe
;            -DICON=icon.ico -DWEBVIEW2=MicrosoftEdgeWebview2Setup.exe
;            -DOUTFILE=Yui-1.2.3+4.gabc-setup.exe project.nsi
;
; Derived from Wails v2.9.2's template (pkg/buildassets/build/windows/
; installer), with its per-user bugs fixed:
;   - the uninstall entry was written to HKLM even for a per-user install
;     (RequestExecutionLevel user cannot write there, so Apps & features
;     never listed it); here it goes to HKCU;
;   - the per-user WebView2 check read "...\Clients{F3017226-…}" (a
;     missing backslash), so it never found a per-user runtime and ran the
;     bootstrapper on every install; here both keys are read correctly and
;     "0.0.0.0" (an uninstalled runtime) counts as absent;
;   - the default folder was $PROGRAMFILES64, which a user cannot write;
;     here it is $LOCALAPPDATA\Programs\Yui;
;   - SetShellVarContext compared the execution level at run time; here
;     it is "current" (shortcuts and folders of the installing user).
; And for a desktop app that lives in the tray: a running Yui is asked to
; quit (yui --quit) before its files are replaced or removed, and the
; uninstaller removes the "Start at login" Run value it may have written.

Unicode true
SetCompressor /SOLID lzma
RequestExecutionLevel user
ManifestDPIAware true

!ifndef VERSION | WIN_VERSION | BINARY | ICON | WEBVIEW2 | OUTFILE
  !error "define VERSION, WIN_VERSION, BINARY, ICON, WEBVIEW2 and OUTFILE (see the header)"
!endif

!define PRODUCT "Yui"
!define EXE "yui.exe"
!define PUBLISHER "The Yui authors"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Yui"
!define RUN_KEY "Software\Microsoft\Windows\CurrentVersion\Run"
!define WEBVIEW2_GUID "{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}"

Name "${PRODUCT}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${PRODUCT}"
InstallDirRegKey HKCU "${UNINST_KEY}" "InstallLocation"
ShowInstDetails show
ShowUninstDetails show

VIProductVersion "${WIN_VERSION}"
VIFileVersion "${WIN_VERSION}"
VIAddVersionKey "ProductName" "${PRODUCT}"
VIAddVersionKey "CompanyName" "${PUBLISHER}"
VIAddVersionKey "FileDescription" "${PRODUCT} installer"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "MIT License, ${PUBLISHER}"

!include "MUI2.nsh"
!include "LogicLib.nsh"
!include "x64.nsh"
!include "WinVer.nsh"
!include "FileFunc.nsh"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\${EXE}"
!define MUI_FINISHPAGE_RUN_TEXT "Start Yui"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Function .onInit
  SetShellVarContext current
  ${IfNot} ${AtLeastWin10}
  ${OrIfNot} ${IsNativeAMD64}
    IfSilent +2
      MessageBox MB_OK|MB_ICONSTOP "Yui needs 64-bit Windows 10 or later."
    SetErrorLevel 64
    Abort
  ${EndIf}
FunctionEnd

Function un.onInit
  SetShellVarContext current
FunctionEnd

; A running Yui (from an earlier install) quits and waits until it has
; exited, so its files can be replaced or removed.
!macro QuitRunningYui
  ${If} ${FileExists} "$INSTDIR\${EXE}"
    DetailPrint "Asking a running Yui to quit"
    nsExec::Exec '"$INSTDIR\${EXE}" --quit'
    Pop $0
  ${EndIf}
!macroend

; WebView2 is installed when either the per-machine or the per-user
; runtime reports a version (Microsoft's "Detect if a WebView2 Runtime is
; already installed"); otherwise the bootstrapper downloads and installs
; it, per user when not elevated.
Function InstallWebView2
  SetRegView 64
  ReadRegStr $0 HKLM "SOFTWARE\WOW6432Node\Microsoft\EdgeUpdate\Clients\${WEBVIEW2_GUID}" "pv"
  ${If} $0 != ""
  ${AndIf} $0 != "0.0.0.0"
    Return
  ${EndIf}
  ReadRegStr $0 HKCU "Software\Microsoft\EdgeUpdate\Clients\${WEBVIEW2_GUID}" "pv"
  ${If} $0 != ""
  ${AndIf} $0 != "0.0.0.0"
    Return
  ${EndIf}
  DetailPrint "Installing the Microsoft Edge WebView2 Runtime"
  InitPluginsDir
  SetOutPath "$PLUGINSDIR\webview2"
  File "/oname=MicrosoftEdgeWebview2Setup.exe" "${WEBVIEW2}"
  ExecWait '"$PLUGINSDIR\webview2\MicrosoftEdgeWebview2Setup.exe" /silent /install' $1
  DetailPrint "WebView2 bootstrapper exit code: $1"
FunctionEnd

Section "Yui" SecMain
  SectionIn RO
  !insertmacro QuitRunningYui
  Call InstallWebView2
  SetOutPath "$INSTDIR"
  File "/oname=${EXE}" "${BINARY}"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortcut "$SMPROGRAMS\${PRODUCT}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0

  ; Apps & features: the current user's Uninstall key.
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "${PRODUCT}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "${PUBLISHER}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\${EXE},0"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKCU "${UNINST_KEY}" "EstimatedSize" "$0"
SectionEnd

Section "Uninstall"
  !insertmacro QuitRunningYui
  Delete "$INSTDIR\${EXE}"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  Delete "$SMPROGRAMS\${PRODUCT}.lnk"
  ; "Start at login", if Yui wrote it, and Task Manager's mark of it.
  DeleteRegValue HKCU "${RUN_KEY}" "Yui"
  DeleteRegValue HKCU "Software\Microsoft\Windows\CurrentVersion\Explorer\StartupApproved\Run" "Yui"
  ; WebView2's cache for yui.exe (Wails' default data folder); the
  ; settings in %APPDATA%\yui stay, as an uninstaller should leave them.
  RMDir /r "$APPDATA\${EXE}"
  DeleteRegKey HKCU "${UNINST_KEY}"
SectionEnd
