; Inno Setup 6 script: Rotary for one user, without administrator rights.
;
;   iscc /DAppVersion=0.1.0 installer\windows\rotary.iss        (after building dist\Rotary)
;   signed:  iscc /DAppVersion=0.1.0 /DSign "/Ssigntool=signtool.exe sign /fd sha256 /tr <your CA's RFC 3161 timestamp URL> /td sha256 /a $f" installer\windows\rotary.iss
;
; Unattended, for IT (docs/deployment.md), from an administrator's command prompt:
;   Rotary-0.1.0-setup.exe /VERYSILENT /SUPPRESSMSGBOXES /NORESTART /ALLUSERS /POLICY="\\server\it\rotary-policy.toml"
; /VERYSILENT /SUPPRESSMSGBOXES /NORESTART are Inno Setup's own: no window, no question.
; /ALLUSERS installs for every user into Program Files (needs administrator rights; without
; it, the current user only, as below). /POLICY=FILE copies the organisation's settings file
; to %ProgramData%\Rotary\policy.toml, where every user's Rotary reads it (administrator
; install only: a per-user install cannot write there and says so in the setup log, /LOG).
; An uninstall leaves that file alone: it is IT's.
;
; Installs into %LOCALAPPDATA%\Programs\Rotary, adds Start-menu and (optionally) desktop
; shortcuts and an uninstaller. Conversations and settings live apart, in
; %LOCALAPPDATA%\Rotary, and the uninstaller keeps them unless the user asks otherwise
; (or passes /REMOVEMYDATA to a silent uninstall).

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppName "Rotary"
#define AppExe "Rotary.exe"
#define Bundle "..\..\dist\Rotary"

[Setup]
AppId={{6D1E2B64-3C1F-4E8B-9A57-52B0C4A4E1D3}
AppName={#AppName}
AppVersion={#AppVersion}
AppPublisher=Rotary team
AppComments=Offline chat with large language models on this computer
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
; /ALLUSERS (or /CURRENTUSER) on the command line chooses; no dialog asks.
PrivilegesRequiredOverridesAllowed=commandline
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\..\dist
OutputBaseFilename=Rotary-{#AppVersion}-setup
SetupIconFile=..\icons\rotary.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes
RestartApplications=no
#ifdef Sign
; "signtool" is defined on the iscc command line (/Ssigntool=...); it signs the setup
; and the uninstaller. Sign dist\Rotary\Rotary.exe itself before running iscc.
SignTool=signtool
SignedUninstaller=yes
#endif

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[Files]
Source: "{#Bundle}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
Source: "..\policy\policy.toml.example"; DestDir: "{app}"; Flags: ignoreversion
; The organisation's settings file named by /POLICY=FILE (read at install time, not bundled).
Source: "{param:POLICY|}"; DestDir: "{commonappdata}\Rotary"; DestName: "policy.toml"; Flags: external ignoreversion uninsneveruninstall; Check: ShouldPlacePolicy

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"; Comment: "Offline AI chat"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; Only what the app writes beside itself, never the user's data folder.
Type: filesandordirs; Name: "{app}\_internal\__pycache__"

[Code]
function ShouldPlacePolicy(): Boolean;
begin
  Result := ExpandConstant('{param:POLICY|}') <> '';
  if Result and not IsAdminInstallMode then
  begin
    Log('/POLICY ignored: only an administrator install (/ALLUSERS) can write ' +
        ExpandConstant('{commonappdata}\Rotary'));
    Result := False;
  end;
end;

function RemoveMyDataRequested(): Boolean;
var
  I: Integer;
begin
  Result := False;
  for I := 1 to ParamCount do
    if CompareText(ParamStr(I), '/REMOVEMYDATA') = 0 then
      Result := True;
end;

procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var
  DataDir: String;
  RemoveData: Boolean;
begin
  if CurUninstallStep <> usPostUninstall then
    exit;
  DataDir := ExpandConstant('{localappdata}\Rotary');
  if not DirExists(DataDir) then
    exit;
  RemoveData := RemoveMyDataRequested();
  if (not RemoveData) and (not UninstallSilent) then
    RemoveData := MsgBox('Rotary is removed.' + #13#10#13#10 +
      'Do you also want to delete your Rotary conversations and settings?' + #13#10 +
      'They are in ' + DataDir + '.' + #13#10#13#10 +
      'Choose No to keep them for a later installation.',
      mbConfirmation, MB_YESNO or MB_DEFBUTTON2) = IDYES;
  if RemoveData then
    DelTree(DataDir, True, True, True);
end;
